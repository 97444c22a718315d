// The message catalogue: every sentence the pages show goes through t(). English first.

const en = {
  "app.name": "Parlour",
  "page.h1.scout": "SCOUT at Parlour",
  "page.h1.scan": "SCAN at Parlour",
  "page.h1.snap": "SNAP at Parlour",
  "page.h1.replay": "A SCOUT game replayed",
  "app.tagline": "Card games in your browser. No account, nothing to download.",
  "lobby.choose_game": "Choose a game",
  "lobby.scout.blurb": "Beat the table or take a card from it — but never reorder your hand.",
  "lobby.scan.blurb": "Race to spot the one card that matches.",
  "lobby.snap.blurb": "Flip, watch, and call “Snap!” first.",
  "lobby.range": "{min}–{max} players",
  "lobby.facts.scout": "SCOUT: 2–5 players, about 15 minutes against the computer.",
  "lobby.facts.scan": "SCAN: 2–8 players, a few minutes. Quick eyes win.",
  "lobby.facts.snap": "SNAP: 2–12 players, a few minutes. Quick hands win.",
  "lobby.setup": "Set up your table",
  "lobby.your_name": "Your name",
  "lobby.name_placeholder": "Guest",
  "lobby.players": "Players",
  "lobby.players_n": "{n} players",
  "lobby.players_count": "Number of players",
  "lobby.fewer": "Fewer players",
  "lobby.more": "More players",
  "lobby.opponents": "Opponents",
  "lobby.seat_n": "Seat {n}",
  "lobby.friend": "A friend (invite by link)",
  "lobby.level": "Opponents' level",
  "lobby.friends": "Seats for friends",
  "lobby.friends_none": "None — only computers",
  "lobby.friends_n": "{n} (invite by link)",
  "lobby.pace": "One opponent at your level sets the pace; the others are a little slower.",
  "lobby.lineup": "Computers: {list}.",
  "lobby.no_bots": "Every other seat is for a friend: send them the link once the table is set.",
  "lobby.options": "Options",
  "lobby.count_chips": "Unspent Scout chips score a point (2 players)",
  "lobby.scan.category": "Category to match",
  "lobby.scan.category_first": "Category of the first game",
  "lobby.scan.shape": "Shape",
  "lobby.scan.pattern": "Pattern",
  "lobby.scan.position": "Position",
  "lobby.scan.colour": "Colour",
  "lobby.scan.random": "Random",
  "lobby.scan.dealers_choice": "Dealer's Choice",
  "lobby.scan.dealers_choice_hint": "Whoever wins a card names the category for the next one.",
  "lobby.scan.dealers_choice_off": "Not with four in a row: each game keeps its own category.",
  "lobby.scan.bluffo": "Bluffo",
  "lobby.scan.bluffo_hint": "Three blue cards are taken out unseen: slap Bluffo when a card has no match.",
  "lobby.scan.four_in_a_row": "Four in a row",
  "lobby.scan.four_in_a_row_hint": "Four games, each category once; the best total wins.",
  "lobby.scan.four_in_a_row_off": "Not with Dealer's Choice, which changes the category between cards.",
  "lobby.scan.colour_blind": "Colour-blind mode",
  "lobby.scan.colour_blind_hint": "Adds a letter to every colour stripe. Remembered on this device.",
  "lobby.snap.match": "Cards match when they have",
  "lobby.snap.rank": "The same rank",
  "lobby.snap.rank_and_colour": "Same rank and colour",
  "lobby.snap.index_card": "Index-card variant",
  "lobby.snap.index_card_hint": "No ties: the quickest call always wins the cards.",
  "lobby.snap.shuffle": "Shuffle on recycle",
  "lobby.snap.shuffle_hint": "A face-up pile is shuffled when it becomes the stock again.",
  "lobby.play": "Play",
  "lobby.play_game": "Play {game}",
  "lobby.creating": "Setting the table…",
  "lobby.how": "How to play",
  "lobby.help_title": "How to play {game}",
  "lobby.help.scan.1": "The goal",
  "lobby.help.scan.1.text": "A tan card is turned up. Be the first to touch the one blue card that matches it in the agreed category — shape, pattern, position or colour. Whoever touches it first wins the tan card; the most cards wins.",
  "lobby.help.scan.2": "Wrong touches",
  "lobby.help.scan.2.text": "Touch a card that does not match and you are out until the next card — and you give one of your won cards to the winner.",
  "lobby.help.scan.3": "Bluffo",
  "lobby.help.scan.3.text": "With Bluffo, three blue cards are missing, so some tan cards have no match. Slap Bluffo when you think so: if you are right you win a Bluffo card worth two points.",
  "lobby.help.scan.4": "Four in a row",
  "lobby.help.scan.4.text": "Four games, one per category; the best total wins.",
  "lobby.help.snap.1": "The goal",
  "lobby.help.snap.1.text": "Be the last player holding cards. Players take turns flipping the top card of their stock onto their own face-up pile.",
  "lobby.help.snap.2": "Snap!",
  "lobby.help.snap.2.text": "When two face-up tops match (same rank, or rank and colour), call Snap first to win both piles. If two calls come at the same moment, the piles go to the Snap Pot, and the next card matching the Pot wins it.",
  "lobby.help.snap.3": "False calls",
  "lobby.help.snap.3.text": "Call when nothing matches and you give a card to the player who flipped last.",
  "lobby.help.snap.4": "The end",
  "lobby.help.snap.4.text": "A player with no cards left is out; the others rank by how long they lasted.",
  "lobby.footer": "Computer opponents take their time like people do: they think before a move and react at human speed.",
  "level.beginner": "Beginner",
  "level.easy": "Easy",
  "level.medium": "Medium",
  "level.hard": "Hard",
  "level.expert": "Expert",
  "level.computer": "{level} computer",
  "level.snap_means": "{level} — reacts in about {s} s",
  "level.scan_means": "{level} — finds the match in about {s} s",
  "seat.you": "You",
  "seat.you_lower": "you",
  "seat.open": "Open seat",
  "seat.offline": "offline",
  "seat.away": "away: a computer plays",
  "seat.computer_plays": "computer playing",
  "timer.left": "{n} seconds left",
  "timer.low": "{n} seconds left for your move: after that a computer plays for you.",
  "away.title": "A computer played for you",
  "away.body": "Your time ran out, so a computer plays for you — at once, on every turn — until you are back.",
  "away.back": "I'm back",
  "away.status": "A computer is playing for you.",
  "away.other": "{name} is away: a computer plays for them.",
  "away.other_back": "{name} is back.",
  "seat.host": "host",
  "seat.player": "player",
  "seat.hand": "{n} cards in hand",
  "seat.captured": "{n} captured",
  "seat.chips": "{n} Scout chips",
  "seat.ss_short": "S&S",
  "seat.ss_yes": "Scout & Show available",
  "seat.ss_no": "Scout & Show used",
  "seat.total": "{n} points",
  "seat.thinking": "thinking",
  "seat.deciding": "deciding",
  "seat.decided": "ready",
  "seat.summary": "{name}: {hand} cards in hand, {captured} captured, {chips} Scout chips, {total} points",
  "seat.summary_ss": "{name}: {hand} cards in hand, {captured} captured, {chips} Scout chips, {ss}, {total} points",
  "top.round": "Round {round} of {rounds}",
  "top.invite": "Invite",
  "top.rules": "Rules",
  "top.log": "Log",
  "top.lobby": "Lobby",
  "top.watching": "Watching",
  "log.title": "What happened",
  "log.round": "Round {round}",
  "log.empty": "Nothing yet.",
  "log.flip_decided": "{who} is ready",
  "log.flip_you": "You flipped your hand",
  "log.keep_you": "You kept your hand as dealt",
  "log.show": "{who} showed {cards}",
  "log.show_capture": "{who} showed {cards} and captured {n}",
  "log.scout": "{who} scouted the {card} from the {end} and put it {pos}",
  "log.scout_rotated": "{who} scouted the {card} from the {end}, turned it to {other}, and put it {pos}",
  "log.scout_show": "{who} used Scout & Show: took the {card} from the {end} and put it {pos}",
  "log.scout_show_rotated": "{who} used Scout & Show: took the {card} from the {end}, turned it to {other}, and put it {pos}",
  "log.chip": "a Scout chip for {owner}",
  "log.round_end": "Round {round} is over: {why}",
  "end.left": "left",
  "end.right": "right",
  "why.hand_empty": "{who} emptied their hand",
  "why.scouted_out": "everyone scouted {who}'s show, so {who} pays nothing for their hand",
  "why.stuck": "nobody could answer {who}'s show, so {who} pays nothing for their hand",
  "why.hand_empty_you": "you emptied your hand",
  "why.scouted_out_you": "everyone scouted your show, so you pay nothing for your hand",
  "why.stuck_you": "nobody could answer your show, so you pay nothing for your hand",
  "status.connecting": "Connecting…",
  "status.reconnecting": "Connection lost — reconnecting…",
  "status.your_turn": "Your turn: show cards that beat the table, or scout a card from it.",
  "status.your_turn_empty": "Your turn: the table is empty — show any single card, set or run.",
  "status.your_turn_ss": "Scout & Show: now show cards that beat the table.",
  "status.their_turn": "{name} is thinking…",
  "status.their_turn_human": "Waiting for {name}…",
  "status.flip": "Round {round}: keep or flip your hand.",
  "status.flip_wait": "Waiting for {names} to decide…",
  "status.waiting": "Waiting for players to join.",
  "status.over": "The game is over.",
  "status.watching": "You are watching this table.",
  "show.none": "The table is empty",
  "show.none_hint": "The next player may show any single card, set or run.",
  "show.owner": "{name}'s show",
  "show.owner_you": "Your show",
  "show.scout_hint": "Pick an end card to scout it",
  "show.scout_end": "Scout the {n} from the {end} end",
  "card.label": "{up}, other side {down}",
  "card.selected": "selected",
  "hand.label": "Your hand",
  "hand.empty": "No cards",
  "hand.slot": "Put it at position {n}",
  "hand.slot_first": "Put it at the left end",
  "hand.slot_last": "Put it at the right end",
  "act.show": "Show",
  "act.show_n": "Show {n}",
  "act.show_cannot": "Can't show these",
  "act.why.not_a_group": "These cards are neither a set (all the same number) nor a run (numbers one after another).",
  "act.why.does_not_beat": "These cards do not beat the show on the table: more cards win, then a set beats a run, then higher numbers.",
  "act.why.not_adjacent": "Only cards next to each other in your hand can be shown together.",
  "act.clear": "Clear",
  "act.scout_show": "Scout & Show",
  "act.hint_select": "Select one card, or neighbouring cards, to show.",
  "act.hint_select_ss": "Select the cards to show.",
  "act.sending": "…",
  "tray.title": "Scouting the {end} card",
  "tray.title_ss": "Scout & Show: the {end} card",
  "tray.turn": "Turn it over",
  "tray.turned": "Showing {n}",
  "tray.where": "Now choose where it goes in your hand.",
  "tray.ss_toggle": "Use my Scout & Show",
  "tray.no_slot": "With Scout & Show this card cannot go anywhere useful this way — turn it, or take the other end.",
  "tray.cancel": "Cancel",
  "tray.pick_end": "Scout & Show: first pick a card from an end of the table's show.",
  "flip.title": "Round {round}: keep or flip?",
  "flip.body": "Before the round starts you may turn your whole hand around. The order reverses and every card shows its other number.",
  "flip.keep": "Keep as dealt",
  "flip.flip": "Flip my hand",
  "flip.waiting": "Waiting for the others to decide…",
  "wait.title": "Waiting for players",
  "wait.invite": "Send this link to friends. Whoever opens it takes an open seat.",
  "invite.full": "Every seat is taken, so whoever opens this link will watch the game (they see no hands). To play with friends, choose “A friend” for their seats in the lobby.",
  "invite.started": "The game has started, so whoever opens this link will watch it (they see no hands). To play with friends, choose “A friend” for their seats in the lobby next time.",
  "wait.copy": "Copy link",
  "wait.copied": "Copied!",
  "wait.add_bot": "Add computer",
  "wait.fill_all": "Fill open seats with computers",
  "wait.start": "Start the game",
  "wait.host_starts": "The host starts the game when every seat is taken.",
  "wait.host_left": "The host has left. If they are not back within {n} s, anyone seated can fill the open seats and start.",
  "wait.you_may": "The host has been away for a while, so you may fill the open seats and start.",
  "wait.open": "Open — waiting for a friend",
  "wait.spectate": "Spectator link (sees no hands)",
  "join.title": "Join {name}'s table",
  "join.body": "There is a free seat for you. Choose a name and sit down.",
  "join.sit": "Take a seat",
  "join.watch": "Just watch",
  "join.full": "This table is full — you are watching.",
  "results.round": "Round {round} of {rounds}",
  "results.final": "Final scores",
  "results.player": "Player",
  "results.captured": "Captured",
  "results.chips": "Chips",
  "results.hand": "Hand",
  "results.round_pts": "Round",
  "results.total": "Total",
  "results.exempt": "free",
  "results.next": "Continue",
  "results.you_won": "You won!",
  "results.shared_win": "A shared win!",
  "results.winner": "{name} wins!",
  "results.rank": "{rank}.",
  "results.points": "{n} pts",
  "results.play_again": "Play again",
  "results.replay": "Watch the replay",
  "results.lobby": "Back to the lobby",
  "replay.title": "Replay",
  "replay.first": "First move",
  "replay.prev": "Previous move",
  "replay.play": "Play",
  "replay.pause": "Pause",
  "replay.next": "Next move",
  "replay.last": "Last move",
  "replay.step": "Move {n} of {total}",
  "replay.deal": "The cards are dealt.",
  "replay.not_finished": "This game is still being played — its replay appears when it is over.",
  "replay.missing": "There is no such game.",
  "error.generic": "Something went wrong: {message}",
  "error.no_table": "There is no such table. It may have been a typo in the link.",
  "error.create": "Could not create the table: {message}",
  "help.title": "How to play SCOUT",
  "help.game": "scout",
  "help.close": "Close",
  "help.keys_title": "Playing with the keyboard",
  "help.legend_title": "What the signs mean",
  "legend.captured": "Cards this player has captured this round (a point each).",
  "legend.chips": "Scout chips this player has (a point each): they get one whenever someone scouts from their show.",
  "legend.ss": "Scout & Show still to use this round (3 to 5 players).",
  "legend.ss_used": "Scout & Show already used this round.",
  "legend.playable": "A bright card in your hand can start or be part of a show that beats the table; dimmed cards cannot.",
  "legend.total": "The player's points so far.",
  "card.playable": "{label}, can be shown",
  "game.table": "The table",
  "game.moves": "Your moves",
  "game.your_move": "Your move: choose one.",
};

const help = [
  ["The goal", "Score the most points over as many rounds as there are players (two rounds with two players). You score a point for every card you capture and every Scout chip you collect, and lose a point for every card left in your hand when a round ends."],
  ["Your hand", "Every card has two numbers. The big one at the top is the one that counts; the small upside-down one is its other side. You may never reorder your hand. At the start of each round you may flip your whole hand once: the order reverses and every card shows its other number."],
  ["On your turn, do one thing", "Show: play one card, or several neighbouring cards from your hand that form a set (all the same number) or a run (counting up or down by one, like 4-5-6). Your show must beat the one on the table; you capture the cards you beat.\nScout: take the card at the left or right end of the table's show, turn it over if you like, and put it anywhere in your hand. The owner of that show gets a Scout chip.\nScout & Show: once per round, scout and then show straight away."],
  ["What beats what", "More cards beat fewer. With the same number of cards, a set beats a run. Otherwise the higher smallest number wins. Equal is not enough. When the table is empty, any card, set or run may be shown."],
  ["End of a round", "A round ends when someone plays the last card of their hand, or when everyone else has scouted from a show in a row — then its owner pays nothing for the cards left in their hand."],
  ["Two players", "Each player has three Scout chips per round. Scouting costs one of your own chips and you play again. There is no Scout & Show."],
];

const keys = [
  "Tab and Shift+Tab move between controls; the focused control has a bright outline.",
  "In your hand, ← and → move between cards; Enter or Space selects a card to show.",
  "Choose a card at an end of the table's show with Enter to scout it, then pick the place in your hand.",
  "Escape cancels a scout or clears your selection.",
];

/** Add sentences to the catalogue (each game page brings its own, e.g. `i18n-snap.js`): a plain
 * English object, or `{ en: {...}, nb: {...}, … }` by language (only `en` is used for now). */
export function addMessages(entries) {
  const byLanguage = entries?.en !== null && typeof entries?.en === "object";
  Object.assign(en, byLanguage ? entries.en : entries);
}

let helpContent = null;

/** Replace the help panel's content: `{ sections: [[title, text], …], keys: [text, …] }`; its
 * title is the catalogue's "help.title" (a game page sets its own). */
export function setHelpContent(content) {
  helpContent = content;
}

/** The sentence for `key`, with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const text = en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : ""));
}

const plurals = new Intl.PluralRules("en");

/** The sentence for `key` and the count `n`: the catalogue's `key.one`, `key.other`… as
 * Intl.PluralRules picks for the language (falling back to `key.other`, then `key`); `{n}` is
 * filled with `n`. */
export function tn(key, n, params = {}) {
  const form = `${key}.${plurals.select(n)}`;
  const found = form in en ? form : `${key}.other` in en ? `${key}.other` : key;
  return t(found, { ...params, n });
}

/** A name in the middle of a sentence: the viewer is "you" there, not "You". */
export function inSentence(name) {
  return name === en["seat.you"] ? en["seat.you_lower"] ?? name.toLowerCase() : name;
}

/** The first letter of `text` in capitals (a sentence that starts with a list of names). */
export function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "first", "second", … as used in "put it third". */
export function ordinal(n) {
  const words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth"];
  if (n >= 1 && n <= words.length) return words[n - 1];
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${tail}`;
}

/** "Ana", "Ana and Bo", "Ana, Bo and Cleo". */
export function listNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** What the table's signs mean (SCOUT): [class of a sample, its text, the key of its meaning]. */
const legend = [
  ["icon.icon-captured", "", "legend.captured"],
  ["icon.icon-chips", "", "legend.chips"],
  ["ss-badge", "S&S", "legend.ss"],
  ["ss-badge.used", "S&S", "legend.ss_used"],
  ["legend-card", "7", "legend.playable"],
  ["seat-total", "12", "legend.total"],
];

/** The help panel's sections: [title, text] pairs; the keyboard notes; the signs' meanings. */
export function helpSections() {
  return helpContent ?? { sections: help, keys, legend };
}

/** Fill every element marked data-i18n (text) or data-i18n-<attr> (attribute). */
export function applyCatalogue(root = document) {
  for (const el of root.querySelectorAll("*")) {
    for (const attr of el.getAttributeNames()) {
      if (attr === "data-i18n") el.textContent = t(el.getAttribute(attr));
      else if (attr.startsWith("data-i18n-")) {
        el.setAttribute(attr.slice("data-i18n-".length), t(el.getAttribute(attr)));
      }
    }
  }
}
