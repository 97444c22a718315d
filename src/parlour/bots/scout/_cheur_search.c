/* The SCOUT searches' hot paths in C (see _cheur.c): whole playouts to the end of a round, by
 * the fast policy (search.play_round_out) or by the opponent model
 * (opponent_model.model_rollout), and the opponent model's option scores
 * (features.plain_scores). The same doubles and the same draws of the caller's random generator
 * as the Python functions; None for input they do not take (the caller then runs the Python
 * function). */

#include <math.h>

#include "_cheur.h"

/* ---- playouts (parlour.bots.scout.search.play_round_out) ---------------------------------- */

#define MAX_MOVES 1000000

/* randrange(n) from the caller's generator into *out; 0 on an error (set). */
static int draw_below(PyObject *randrange, Py_ssize_t n, Py_ssize_t *out) {
    PyObject *arg = PyLong_FromSsize_t(n);
    if (arg == NULL) return 0;
    PyObject *r = PyObject_CallOneArg(randrange, arg);
    Py_DECREF(arg);
    if (r == NULL) return 0;
    *out = PyLong_AsSsize_t(r);
    Py_DECREF(r);
    if (*out == -1 && PyErr_Occurred()) return 0;
    if (*out < 0 || *out >= n) {
        PyErr_SetString(PyExc_ValueError, "randrange(n) gave a number outside 0..n-1");
        return 0;
    }
    return 1;
}

/* A round in play: the hands, the active show, the cards captured and chips per seat, and the
 * turn; `exempt` is the seat that pays nothing at the round's end (S13.2), -1 for none. */
typedef struct {
    Cards hands[MAX_SEATS];
    Cards active;
    long piles[MAX_SEATS], chips[MAX_SEATS];
    long owner, turn, scouts, pending, active_key, exempt;
    Py_ssize_t players;
} Round;

/* The position of a playout's first 8 arguments (hands, active, owner, turn, scouts, pending,
 * piles, chips) into r; 0 if it is not one the playouts take. */
static int read_round(PyObject *const *args, Round *r) {
    if (!PyTuple_CheckExact(args[0])) return 0;
    Py_ssize_t players = PyTuple_GET_SIZE(args[0]);
    if (players < 3 || players > MAX_SEATS) return 0;
    Py_ssize_t total = 0;
    for (Py_ssize_t s = 0; s < players; s++) {
        if (!read_cards(PyTuple_GET_ITEM(args[0], s), &r->hands[s], MAX_CARDS)) return 0;
        total += r->hands[s].n;
    }
    if (!read_cards(args[1], &r->active, MAX_CARDS)) return 0;
    total += r->active.n;
    if (total > MAX_CARDS || !read_long(args[2], &r->owner) || !read_long(args[3], &r->turn) ||
        !read_long(args[4], &r->scouts) || !PyBool_Check(args[5]) ||
        !read_ints(args[6], r->piles, players) || !read_ints(args[7], r->chips, players) ||
        r->turn < 0 || r->turn >= players || r->owner < -1 || r->owner >= players ||
        (r->owner == -1 && r->active.n > 0) || r->scouts < 0)
        return 0;
    r->pending = args[5] == Py_True;
    r->players = players;
    r->active_key = cards_key(r->active.up, r->active.n);
    r->exempt = -1;
    return 1;
}

/* The seat to move shows its cards [start, start + length) (rules._apply_show); 1 if that
 * ends the round (S13.1: the hand is empty; no one is exempt). */
static int round_show(Round *r, Py_ssize_t start, Py_ssize_t length) {
    Cards *h = &r->hands[r->turn];
    Py_ssize_t n = h->n;
    r->piles[r->turn] += (long)r->active.n;
    for (Py_ssize_t t = 0; t < length; t++) {
        r->active.up[t] = h->up[start + t];
        r->active.down[t] = h->down[start + t];
    }
    r->active.n = length;
    r->active_key = cards_key(r->active.up, r->active.n);
    for (Py_ssize_t t = start + length; t < n; t++) {
        h->up[t - length] = h->up[t];
        h->down[t - length] = h->down[t];
    }
    h->n = n - length;
    r->owner = r->turn;
    r->scouts = 0;
    r->pending = 0;
    if (h->n == 0) return 1;
    r->turn = (r->turn + 1) % r->players;
    return 0;
}

/* The seat to move scouts the active show's left (or right) card, turned round if `rotate`,
 * into its hand at `insert` (rules._apply_scout); 1 if that ends the round (S13.2: scouted
 * out; the show's owner pays nothing). */
static int round_scout(Round *r, int left, int rotate, Py_ssize_t insert) {
    Cards *h = &r->hands[r->turn];
    Py_ssize_t n = h->n;
    Py_ssize_t at = left ? 0 : r->active.n - 1;
    long up = rotate ? r->active.down[at] : r->active.up[at];
    long down = rotate ? r->active.up[at] : r->active.down[at];
    for (Py_ssize_t t = n; t > insert; t--) {
        h->up[t] = h->up[t - 1];
        h->down[t] = h->down[t - 1];
    }
    h->up[insert] = up;
    h->down[insert] = down;
    h->n = n + 1;
    if (left) {
        for (Py_ssize_t t = 1; t < r->active.n; t++) {
            r->active.up[t - 1] = r->active.up[t];
            r->active.down[t - 1] = r->active.down[t];
        }
    }
    r->active.n -= 1;
    r->active_key = cards_key(r->active.up, r->active.n);
    r->chips[r->owner] += 1; /* S11 */
    r->turn = (r->turn + 1) % r->players;
    r->scouts += 1;
    if (r->scouts == r->players - 1) {
        r->exempt = r->owner;
        return 1;
    }
    return 0;
}

/* Seat s's points in the round (S13): captured cards and chips, minus the cards left in its
 * hand unless it is exempt. */
static long seat_points(const Round *r, Py_ssize_t s) {
    return r->piles[s] + r->chips[s] + (s == r->exempt ? 0 : -(long)r->hands[s].n);
}

/* The round's points of `seat` minus the other seats' mean, as a float. */
static PyObject *round_value(const Round *r, long seat) {
    long points[MAX_SEATS], others = 0;
    for (Py_ssize_t s = 0; s < r->players; s++) {
        points[s] = seat_points(r, s);
        if (s != seat) others += points[s];
    }
    return PyFloat_FromDouble((double)points[seat] - (double)others / (double)(r->players - 1));
}

/* Every seat's total at the end of this round: the game's totals before it (`totals`, per seat)
 * and this round's points (S14), into final[0..players). */
static void final_totals(const Round *r, const long *totals, long *final) {
    for (Py_ssize_t s = 0; s < r->players; s++) final[s] = totals[s] + seat_points(r, s);
}

/* With the game's totals before this round: `seat`'s share of the game's win (1 / the number of
 * seats on the highest total, if it is one of them, else 0; S6), as a float. */
static PyObject *round_win(const Round *r, long seat, const long *totals) {
    long final[MAX_SEATS], best = LONG_MIN, on_best = 0;
    final_totals(r, totals, final);
    for (Py_ssize_t s = 0; s < r->players; s++)
        if (final[s] > best) best = final[s];
    for (Py_ssize_t s = 0; s < r->players; s++) on_best += final[s] == best;
    return PyFloat_FromDouble(final[seat] == best ? 1.0 / (double)on_best : 0.0);
}

/* An optional `totals` argument (None, or one small int per seat) into t[0..players); *given
 * says which. 0 for anything else. */
static int read_totals(PyObject *totals, Py_ssize_t players, long *t, int *given) {
    *given = totals != Py_None;
    return !*given || read_ints(totals, t, players);
}

/* With the game's totals before this round and this round's points: `seat`'s total minus the
 * highest of the other seats' totals (its lead, negative when behind), as a float. */
static PyObject *round_lead(const Round *r, long seat, const long *totals) {
    long final[MAX_SEATS], best = LONG_MIN;
    final_totals(r, totals, final);
    for (Py_ssize_t s = 0; s < r->players; s++)
        if (s != seat && final[s] > best) best = final[s];
    return PyFloat_FromDouble((double)(final[seat] - best));
}

/* An optional objective argument: false (or absent) for the share of the win, true for the lead.
 * 0 for anything but a bool. */
static int read_lead(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t at, int *lead) {
    *lead = 0;
    if (nargs <= at) return 1;
    if (!PyBool_Check(args[at])) return 0;
    *lead = args[at] == Py_True;
    return 1;
}

/* Every seat's round points, as a tuple of ints. */
static PyObject *round_points(const Round *r) {
    PyObject *points = PyTuple_New(r->players);
    if (points == NULL) return NULL;
    for (Py_ssize_t s = 0; s < r->players; s++) {
        PyObject *p = PyLong_FromLong(seat_points(r, s));
        if (p == NULL) {
            Py_DECREF(points);
            return NULL;
        }
        PyTuple_SET_ITEM(points, s, p);
    }
    return points;
}

/* The value a playout ends in: round_value (every seat's points, round_points, for seat -1), or
 * with the totals t if they were given round_lead (lead) or round_win. */
static PyObject *end_value(const Round *r, long seat, int given, const long *t, int lead) {
    if (seat < 0) return round_points(r);
    if (!given) return round_value(r, seat);
    return lead ? round_lead(r, seat, t) : round_win(r, seat, t);
}

/* search.play_round_out for 3+ players: from the position given, every seat plays
 * search.playout_move (the longest Show with probability 0.85 when it could also scout, a random
 * one among equals; else a random plain Scout, its card put beside a number within one of it
 * when there is such a place) and the engine applies it (rules._apply_show, _apply_scout,
 * _end_round), to the round's end. Returns `seat`'s round points minus the other seats' mean
 * (or, given the game's totals before the round, its share of the game's win, round_win, or with
 * lead true its lead, round_lead; for seat -1, without totals, every seat's round points as a
 * tuple); None for input it does not take. Arguments: hands (per seat a
 * tuple of (up, down) cards), active, owner (-1 for none), turn, scouts, pending, piles (cards
 * captured per seat), chips, seat, random, randrange (the generator's bound methods), and
 * optionally totals (or None) and lead (a bool). */
PyObject *cheur_rollout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Round r; /* on the stack: a draw may let another thread in here */
    long seat;
    if (nargs < 11 || nargs > 13) {
        PyErr_SetString(PyExc_TypeError, "rollout(hands, active, owner, turn, scouts, pending, "
                                         "piles, chips, seat, random, randrange[, totals[, "
                                         "lead]])");
        return NULL;
    }
    long totals[MAX_SEATS];
    int given, lead;
    if (!read_round(args, &r) || !read_long(args[8], &seat) || seat < -1 || seat >= r.players ||
        !read_totals(nargs >= 12 ? args[11] : Py_None, r.players, totals, &given) ||
        !read_lead(args, nargs, 12, &lead) || (seat < 0 && given))
        Py_RETURN_NONE;
    PyObject *random = args[9], *randrange = args[10];
    Py_ssize_t starts[MAX_CARDS];
    for (long move = 0;; move++) {
        if (move >= MAX_MOVES) {
            PyErr_SetString(PyExc_RuntimeError, "a playout did not end");
            return NULL;
        }
        Cards *h = &r.hands[r.turn];
        Py_ssize_t n = h->n;
        /* the longest Shows beating the table, by their first card (legal_shows' order) */
        Py_ssize_t longest = 0, count = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            long step = 0;
            for (Py_ssize_t end = i + 1; end <= n; end++) {
                long key;
                if (!group_at(h->up, i, end, &step, &key)) break;
                if (key <= r.active_key) continue;
                Py_ssize_t length = end - i;
                if (length > longest) {
                    longest = length;
                    count = 0;
                }
                if (length == longest) starts[count++] = i;
            }
        }
        int show;
        if (r.pending || r.active.n == 0) {
            if (count == 0) {
                PyErr_SetString(PyExc_ValueError, "empty range in randrange(0)");
                return NULL;
            }
            show = 1;
        } else if (count > 0) {
            PyObject *x = PyObject_CallNoArgs(random);
            if (x == NULL) return NULL;
            double u = PyFloat_AsDouble(x);
            Py_DECREF(x);
            if (u == -1.0 && PyErr_Occurred()) return NULL;
            show = u < 0.85;
        } else {
            show = 0;
        }
        if (show) {
            Py_ssize_t pick;
            if (!draw_below(randrange, count, &pick)) return NULL;
            if (round_show(&r, starts[pick], longest)) break;
            continue;
        }
        /* a plain Scout: SCOUTS[n] lists left then right, unrotated then rotated, by insert */
        Py_ssize_t pick, slots = n + 1;
        if (!draw_below(randrange, 4 * slots, &pick)) return NULL;
        int left = pick < 2 * slots, rotate = (pick / slots) % 2;
        Py_ssize_t insert = pick % slots;
        Py_ssize_t at = left ? 0 : r.active.n - 1;
        long up = rotate ? r.active.down[at] : r.active.up[at];
        Py_ssize_t fits[MAX_CARDS + 1], nfits = 0;
        for (Py_ssize_t i = 0; i <= n; i++)
            if ((i > 0 && h->up[i - 1] - up >= -1 && h->up[i - 1] - up <= 1) ||
                (i < n && h->up[i] - up >= -1 && h->up[i] - up <= 1))
                fits[nfits++] = i;
        if (nfits > 0) {
            Py_ssize_t k;
            if (!draw_below(randrange, nfits, &k)) return NULL;
            insert = fits[k];
        }
        if (round_scout(&r, left, rotate, insert)) break;
    }
    return end_value(&r, seat, given, totals, lead);
}

/* ---- the opponent model's scores (parlour.bots.scout.features.plain_scores) -------------- */

static PyObject *str_start = NULL, *str_length = NULL, *str_end = NULL, *str_rotate = NULL,
                *str_insert = NULL;

/* An int attribute `name` of obj into *out; 0 if it is not one (no error left set). */
static int attr_long(PyObject *obj, PyObject *name, long *out) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) {
        PyErr_Clear();
        return 0;
    }
    int ok = read_long(v, out);
    Py_DECREF(v);
    return ok;
}


/* What features.plain_scores's options are scored against: the weights, the opponents' hand
 * sizes (the fewest at least 1), the cards a Show captures, a chip's worth, whether the Scout &
 * Show is kept, and whether a Scout now counts the cards left at the round's end. */
typedef struct {
    const double *w;
    const long *opp;
    Py_ssize_t n_opp;
    long fewest;
    double captured, chip, ss_kept;
    int ends;
} Table;

static void table_of(Table *t, const double *w, const long *opp, Py_ssize_t n_opp,
                     Py_ssize_t captured, double ss_kept, int ends) {
    Py_ssize_t players = n_opp + 1;
    long fewest = opp[0];
    for (Py_ssize_t k = 1; k < n_opp; k++)
        if (opp[k] < fewest) fewest = opp[k];
    t->w = w;
    t->opp = opp;
    t->n_opp = n_opp;
    t->fewest = fewest < 1 ? 1 : fewest;
    t->captured = (double)captured;
    t->chip = players == 2 ? 0.6 : 1.0 / (double)(players - 1 > 1 ? players - 1 : 1);
    t->ss_kept = ss_kept;
    t->ends = ends;
}

/* The score of the Show h[start, start + length) from the hand h[0..n). */
static double show_score(const Table *t, const long *h, Py_ssize_t n, Py_ssize_t start,
                         Py_ssize_t length) {
    long rest[MAX_CARDS + 1];
    const double *w = t->w;
    Py_ssize_t m = without(h, n, start, start + length, rest);
    long below = 0;
    for (Py_ssize_t k = 0; k < t->n_opp; k++) below += t->opp[k] < length;
    double value = hand_terms(w, rest, m, t->fewest);
    value = value + w[6] * t->captured;
    value = value + w[9] * ((double)cards_key(h + start, length) / 32.0);
    value = value + w[10] * ((double)below / (double)t->n_opp);
    value = value + w[11] * t->ss_kept;
    return value + w[13] * (m ? 0.0 : 1.0);
}

/* The score of a plain Scout putting the number `number` at `insert` in the hand h[0..n). */
static double scout_score(const Table *t, const long *h, Py_ssize_t n, long number,
                          Py_ssize_t insert) {
    long rest[MAX_CARDS + 1];
    const double *w = t->w;
    Py_ssize_t m = 0;
    for (Py_ssize_t k = 0; k < insert; k++) rest[m++] = h[k];
    rest[m++] = number;
    for (Py_ssize_t k = insert; k < n; k++) rest[m++] = h[k];
    double value = hand_terms(w, rest, m, t->fewest);
    value = value + w[7] * t->chip;
    value = value + w[8] * 1.0;
    value = value + w[11] * t->ss_kept;
    return value + w[12] * (t->ends ? (double)m : 0.0);
}

/* features.plain_scores for options that are all Shows and plain Scouts (the types given):
 * each option's value, term by term in the Python function's order; None for anything else
 * (a Scout & Show, unusual input: the caller scores them in Python). Arguments: hand (a tuple
 * of numbers), active (a tuple of (up, down) cards), opponents (their hand sizes), ss_kept,
 * ends, options (a list), w (the 14 weights), Show, Scout. */
PyObject *cheur_plain_scores(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long h[MAX_CARDS + 1], opp[MAX_CARDS];
    Py_ssize_t n = 0, n_opp = 0;
    Cards active;
    double w[N_FEATURES];
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "plain_scores(hand, active, opponents, ss_kept, ends, "
                                         "options, w, Show, Scout)");
        return NULL;
    }
    PyObject *options = args[5], *show_type = args[7], *scout_type = args[8];
    if (!read_hand(args[0], h, &n) || n >= MAX_CARDS || !read_cards(args[1], &active, MAX_CARDS) ||
        !read_hand(args[2], opp, &n_opp) || n_opp == 0 || !PyFloat_CheckExact(args[3]) ||
        !PyBool_Check(args[4]) || !PyList_CheckExact(options) || !PyTuple_CheckExact(args[6]) ||
        PyTuple_GET_SIZE(args[6]) != N_FEATURES)
        Py_RETURN_NONE;
    for (int k = 0; k < N_FEATURES; k++) {
        PyObject *item = PyTuple_GET_ITEM(args[6], k);
        if (!PyFloat_CheckExact(item)) Py_RETURN_NONE;
        w[k] = PyFloat_AS_DOUBLE(item);
    }
    Table table;
    table_of(&table, w, opp, n_opp, active.n, PyFloat_AS_DOUBLE(args[3]), args[4] == Py_True);
    Py_ssize_t count_options = PyList_GET_SIZE(options);
    PyObject *out = PyList_New(count_options);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < count_options; k++) {
        PyObject *action = PyList_GET_ITEM(options, k);
        PyTypeObject *kind = Py_TYPE(action);
        double value;
        if ((PyObject *)kind == show_type) {
            long start, length;
            if (!attr_long(action, str_start, &start) || !attr_long(action, str_length, &length) ||
                start < 0 || length < 1 || start + length > n)
                goto unusual;
            value = show_score(&table, h, n, start, length);
        } else if ((PyObject *)kind == scout_type) {
            long insert;
            PyObject *end = PyObject_GetAttr(action, str_end);
            if (end == NULL) {
                PyErr_Clear();
                goto unusual;
            }
            int left = PyUnicode_Check(end) && PyUnicode_CompareWithASCIIString(end, "left") == 0;
            int right = PyUnicode_Check(end) && PyUnicode_CompareWithASCIIString(end, "right") == 0;
            Py_DECREF(end);
            PyObject *rotate = PyObject_GetAttr(action, str_rotate);
            if (rotate == NULL) {
                PyErr_Clear();
                goto unusual;
            }
            int rot = rotate == Py_True, is_bool = PyBool_Check(rotate);
            Py_DECREF(rotate);
            if ((!left && !right) || !is_bool || !attr_long(action, str_insert, &insert) ||
                insert < 0 || insert > n || active.n == 0)
                goto unusual;
            Py_ssize_t at = left ? 0 : active.n - 1;
            value = scout_score(&table, h, n, rot ? active.down[at] : active.up[at], insert);
        } else {
            goto unusual;
        }
        PyObject *f = PyFloat_FromDouble(value);
        if (f == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, f);
    }
    return out;
unusual:
    Py_DECREF(out);
    Py_RETURN_NONE;
}

/* ---- playouts by the opponent model (parlour.bots.scout.opponent_model.model_rollout) ---- */

#define MAX_OPTIONS (MAX_CARDS * MAX_CARDS + 4 * (MAX_CARDS + 1))

/* opponent_model.model_rollout for 3+ players: from the position given, every seat plays
 * opponent_model.model_move (a softmax at `temperature` over plain_scores of its Shows, in
 * legal_shows' order, then of its plain Scouts that fit, in SCOUTS' order; drawn as
 * random.choices draws) to the round's end. Returns `seat`'s round points minus the other
 * seats' mean (or, given totals, the share of the win or the lead: as in rollout); None for
 * input it does not take. After `moves` moves a round still going is valued as it stands (cards
 * captured + chips - cards in hand per seat). Arguments: the playout's first 9 (see rollout),
 * scout_show (per seat, kept or not), w (the 14 weights), temperature, random (the
 * generator's bound method), moves, and optionally totals (or None) and lead: as in rollout. */
PyObject *cheur_model_rollout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Round r;
    long seat, opp[MAX_SEATS], starts[MAX_OPTIONS], lengths[MAX_OPTIONS];
    double w[N_FEATURES], kept[MAX_SEATS], cum[MAX_OPTIONS];
    long moves, totals[MAX_SEATS];
    int given, lead;
    if (nargs < 14 || nargs > 16) {
        PyErr_SetString(PyExc_TypeError, "model_rollout(hands, active, owner, turn, scouts, "
                                         "pending, piles, chips, seat, scout_show, w, "
                                         "temperature, random, moves[, totals[, lead]])");
        return NULL;
    }
    if (!read_round(args, &r) || !read_long(args[8], &seat) || seat < 0 || seat >= r.players ||
        !PyTuple_CheckExact(args[9]) || PyTuple_GET_SIZE(args[9]) != r.players ||
        !PyTuple_CheckExact(args[10]) || PyTuple_GET_SIZE(args[10]) != N_FEATURES ||
        !PyFloat_CheckExact(args[11]) || !read_long(args[13], &moves) || moves < 0 ||
        !read_totals(nargs >= 15 ? args[14] : Py_None, r.players, totals, &given) ||
        !read_lead(args, nargs, 15, &lead))
        Py_RETURN_NONE;
    for (Py_ssize_t k = 0; k < r.players; k++) {
        PyObject *item = PyTuple_GET_ITEM(args[9], k);
        if (!PyBool_Check(item)) Py_RETURN_NONE;
        kept[k] = item == Py_True ? 1.0 : 0.0;
    }
    for (int k = 0; k < N_FEATURES; k++) {
        PyObject *item = PyTuple_GET_ITEM(args[10], k);
        if (!PyFloat_CheckExact(item)) Py_RETURN_NONE;
        w[k] = PyFloat_AS_DOUBLE(item);
    }
    double temperature = PyFloat_AS_DOUBLE(args[11]);
    PyObject *random = args[12];
    for (long move = 0;; move++) {
        if (move >= moves) break; /* valued as it stands: no one is exempt */
        Cards *h = &r.hands[r.turn];
        Py_ssize_t n = h->n, n_opp = 0, count = 0, shows;
        for (Py_ssize_t s = 0; s < r.players; s++)
            if (s != r.turn) opp[n_opp++] = (long)r.hands[s].n;
        /* Shows by the position of the last card, then by length (legal_shows' order); a
         * longer slice ending there is a group only if the shorter one is */
        for (Py_ssize_t end = 1; end <= n; end++) {
            for (Py_ssize_t length = 1; length <= end; length++) {
                long key = cards_key(h->up + end - length, length);
                if (key == 0) break;
                if (key <= r.active_key) continue;
                starts[count] = (long)(end - length);
                lengths[count++] = (long)length;
            }
        }
        shows = count;
        if (!r.pending && r.active.n > 0) {
            /* Scouts: the left end's card up, down, the right end's up, down; fitting inserts */
            for (int k = 0; k < 4; k++) {
                Py_ssize_t at = k < 2 ? 0 : r.active.n - 1;
                long number = k % 2 ? r.active.down[at] : r.active.up[at];
                for (Py_ssize_t i = 0; i <= n; i++) {
                    if (i == 0 || i == n ||
                        (h->up[i - 1] - number >= -1 && h->up[i - 1] - number <= 1) ||
                        (h->up[i] - number >= -1 && h->up[i] - number <= 1)) {
                        starts[count] = -1 - k;
                        lengths[count++] = (long)i;
                    }
                }
            }
        }
        if (count == 0) Py_RETURN_NONE; /* no move: the Python version says what is wrong */
        Py_ssize_t pick = 0;
        if (count > 1) {
            Table t;
            long ends = r.players > 2 && r.scouts + 1 >= r.players - 1;
            table_of(&t, w, opp, n_opp, r.active.n, kept[r.turn], (int)ends);
            double top = 0.0;
            for (Py_ssize_t k = 0; k < count; k++) {
                double score;
                if (k < shows) {
                    score = show_score(&t, h->up, n, starts[k], lengths[k]);
                } else {
                    int e = (int)(-1 - starts[k]);
                    Py_ssize_t at = e < 2 ? 0 : r.active.n - 1;
                    long number = e % 2 ? r.active.down[at] : r.active.up[at];
                    score = scout_score(&t, h->up, n, number, lengths[k]);
                }
                cum[k] = score / temperature;
                if (k == 0 || cum[k] > top) top = cum[k];
            }
            double total = 0.0;
            for (Py_ssize_t k = 0; k < count; k++) {
                total += exp(cum[k] - top);
                cum[k] = total;
            }
            if (!isfinite(total) || total <= 0.0) Py_RETURN_NONE;
            PyObject *x = PyObject_CallNoArgs(random);
            if (x == NULL) return NULL;
            double u = PyFloat_AsDouble(x);
            Py_DECREF(x);
            if (u == -1.0 && PyErr_Occurred()) return NULL;
            /* random.choices: bisect_right(cum, random() * total, 0, count - 1) */
            double target = u * total;
            Py_ssize_t lo = 0, hi = count - 1;
            while (lo < hi) {
                Py_ssize_t mid = (lo + hi) / 2;
                if (target < cum[mid])
                    hi = mid;
                else
                    lo = mid + 1;
            }
            pick = lo;
        }
        int over;
        if (pick < shows) {
            over = round_show(&r, starts[pick], lengths[pick]);
        } else {
            int e = (int)(-1 - starts[pick]);
            over = round_scout(&r, e < 2, e % 2, lengths[pick]);
        }
        if (over) break;
    }
    return end_value(&r, seat, given, totals, lead);
}

int cheur_search_init(void) {
    str_start = PyUnicode_InternFromString("start");
    str_length = PyUnicode_InternFromString("length");
    str_end = PyUnicode_InternFromString("end");
    str_rotate = PyUnicode_InternFromString("rotate");
    str_insert = PyUnicode_InternFromString("insert");
    return str_start && str_length && str_end && str_rotate && str_insert;
}
