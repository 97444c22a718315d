// What a game page shows now, for the scripts that follow it (the "Learn to play" coach): the page
// publishes each state it draws ({ view, actions, events }); a follower gets every one from the
// moment it follows, starting with the latest published before — a script that loads after the
// first state came (a slow network, a busy machine) still sees it, and the table may then wait
// for this very player, sending nothing more.

let latest = null;
const followers = [];

/** The page draws a new state: tell every follower. */
export function publishState(detail) {
  latest = detail;
  for (const follower of followers) follower(detail);
}

/** Call `follower(detail)` with the latest state (if one came) and each one after it. */
export function followState(follower) {
  followers.push(follower);
  if (latest) follower(latest);
}
