/* The SCOUT bots' hand arithmetic in C (optional; parlour.bots.scout.heuristic keeps the pure-
 * Python versions and uses these when they are built): hand_shape, the heuristic's and the
 * feature evaluation's value of a Scout & Show's best following Show, and the searches'
 * playouts to the end of a round.
 *
 * They give exactly what the Python functions give: the same integers, and the same doubles,
 * computed in the same order (built with -ffp-contract=off, so that no multiply-add is fused);
 * a playout makes the same moves from the same draws of the caller's random generator.
 * Input they do not expect (not a tuple of small ints) goes to the Python versions, given by
 * configure(name, function); a playout returns None for it (the caller plays it in Python). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define ABI 4
#define MAX_CARDS 64

static PyObject *shape_fallback = NULL;
static PyObject *follow_fallback = NULL;
static PyObject *eval_fallback = NULL;

static PyObject *fallback(PyObject *to, PyObject *const *args, Py_ssize_t nargs) {
    if (to == NULL) {
        PyErr_SetString(PyExc_TypeError, "an unexpected argument, and configure() was not called");
        return NULL;
    }
    return PyObject_Vectorcall(to, args, nargs, NULL);
}

/* The numbers of a tuple of ints (at most MAX_CARDS, each within +-1000); 0 if it is not one. */
static int read_hand(PyObject *seq, long *out, Py_ssize_t *n) {
    if (!PyTuple_CheckExact(seq)) return 0;
    Py_ssize_t len = PyTuple_GET_SIZE(seq);
    if (len > MAX_CARDS) return 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (!PyLong_CheckExact(item)) return 0;
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || v < -1000 || v > 1000) {
            PyErr_Clear();
            return 0;
        }
        out[i] = v;
    }
    *n = len;
    return 1;
}

/* An exact int within a long into *out; 0 if it is not one. */
static int read_long(PyObject *obj, long *out) {
    if (!PyLong_CheckExact(obj)) return 0;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

typedef struct {
    long groups, lone, best;
    double measure;
} Shape;

#define N_FEATURES 14

/* Whether hand[i:end] is a group (heuristic.groups_from), and then its strength in *key; once
 * it is not, no longer slice from i is one either. `step` carries the slice's direction. */
static int group_at(const long *h, Py_ssize_t i, Py_ssize_t end, long *step, long *key) {
    long first = h[i];
    Py_ssize_t length = end - i;
    if (length == 1) {
        *key = 48 + first;
        return 1;
    }
    long d = h[end - 1] - h[end - 2];
    if (length == 2) {
        if (d < -1 || d > 1) return 0;
        *step = d;
    } else if (d != *step) {
        return 0;
    }
    if (*step == 0)
        *key = ((long)length << 5) + 16 + first;
    else
        *key = ((long)length << 5) + (*step == 1 ? first : h[end - 1]);
    return 1;
}

/* The hand h (n cards) without h[i:end], into left; its length. */
static Py_ssize_t without(const long *h, Py_ssize_t n, Py_ssize_t i, Py_ssize_t end, long *left) {
    Py_ssize_t m = 0;
    for (Py_ssize_t t = 0; t < i; t++) left[m++] = h[t];
    for (Py_ssize_t t = end; t < n; t++) left[m++] = h[t];
    return m;
}

/* heuristic.hand_shape: maximal groups, lone cards, the strongest group's key, the measure. */
static Shape shape_of(const long *v, Py_ssize_t n, double set_bonus) {
    Shape s = {0, 0, 0, 0.0};
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t j = i + 1;
        long step = 0;
        if (j < n && v[j] - v[i] >= -1 && v[j] - v[i] <= 1) {
            step = v[j] - v[i];
            while (j < n && v[j] - v[j - 1] == step) j++;
        }
        long k = (long)(j - i);
        s.groups += 1;
        if (k == 1)
            s.lone += 1;
        else
            s.measure += (double)(k * k) * (step == 0 ? set_bonus : 1.0);
        i = j;
    }
    long length = 0, run = 99, prev = -99;
    for (Py_ssize_t t = 0; t < n; t++) {
        long x = v[t], d = x - prev;
        prev = x;
        if (d == run)
            length += 1;
        else if (d >= -1 && d <= 1) {
            length = 2;
            run = d;
        } else {
            length = 1;
            run = 99;
        }
        long key;
        if (run == 1)
            key = (length << 5) + x - length + 1;
        else
            key = (length << 5) + (run == -1 ? x : 16 + x);
        if (key > s.best) s.best = key;
    }
    return s;
}

static PyObject *hand_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long v[MAX_CARDS];
    Py_ssize_t n = 0;
    double set_bonus = 1.25;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "hand_shape(values, set_bonus=1.25)");
        return NULL;
    }
    if (nargs == 2) {
        if (!PyFloat_CheckExact(args[1])) return fallback(shape_fallback, args, nargs);
        set_bonus = PyFloat_AS_DOUBLE(args[1]);
    }
    if (!read_hand(args[0], v, &n)) return fallback(shape_fallback, args, nargs);
    Shape s = shape_of(v, n, set_bonus);
    return Py_BuildValue("(llld)", s.groups, s.lone, s.best, s.measure);
}

/* heuristic._best_following_show without the cache: the best value, over every Show beating
 * strength `target` from `held` (every valid group held[i:j], shortest first from each i), of
 * captured * w_captured + quality(what is left) + w_tempo * its strength (+ 100 when nothing is
 * left); -1e9 if there is none. Arguments: held, target, captured, then the weights per_group,
 * lone_card, strength, captured, tempo, hand_card (heuristic.Weights). */
static PyObject *best_following_show(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long h[MAX_CARDS], left[MAX_CARDS];
    Py_ssize_t n = 0;
    double w[6];
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "best_following_show(held, target, captured, 6 weights)");
        return NULL;
    }
    if (!read_hand(args[0], h, &n)) return fallback(follow_fallback, args, nargs);
    for (int k = 0; k < 6; k++) {
        if (!PyFloat_CheckExact(args[3 + k])) return fallback(follow_fallback, args, nargs);
        w[k] = PyFloat_AS_DOUBLE(args[3 + k]);
    }
    long target, captured;
    if (!read_long(args[1], &target) || !read_long(args[2], &captured))
        return fallback(follow_fallback, args, nargs);
    const double per_group = w[0], lone_card = w[1], strength = w[2], w_captured = w[3],
                 tempo = w[4], hand_card = w[5];
    double points = w_captured * (double)captured;
    double best = -1e9;
    for (Py_ssize_t i = 0; i < n; i++) {
        long step = 0;
        for (Py_ssize_t end = i + 1; end <= n; end++) {
            long key;
            if (!group_at(h, i, end, &step, &key)) break;
            if (key <= target) continue;
            Py_ssize_t m = without(h, n, i, end, left);
            double quality;
            if (m == 0) {
                quality = 2.0;
            } else {
                Shape s = shape_of(left, m, 1.25);
                quality = (-per_group) * (double)s.groups;
                quality = quality - lone_card * (double)s.lone;
                quality = quality + strength * (double)(s.best >> 3);
                quality = quality - hand_card * (double)m * 0.1;
            }
            double value = points + quality + tempo * (double)key;
            double with = value + (m == 0 ? 100.0 : 0.0);
            if (with > best) best = with;
        }
    }
    return PyFloat_FromDouble(best);
}

/* features._best_following_show without the cache: (start, end, strength) of the Show beating
 * strength `target` from `held` that the feature weights `w` value most (the first of equals),
 * each valued as features.dot(w, its _vector) would, term by term in the same order; None if
 * there is none. Arguments: held, target, captured_cards, chip, opponents (their hand sizes),
 * w (the 14 weights). */
static PyObject *eval_following_show(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long h[MAX_CARDS], left[MAX_CARDS], opp[MAX_CARDS];
    Py_ssize_t n = 0, n_opp = 0;
    double w[N_FEATURES];
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "eval_following_show(held, target, captured, chip, opponents, w)");
        return NULL;
    }
    if (!read_hand(args[0], h, &n) || !PyFloat_CheckExact(args[3]) ||
        !read_hand(args[4], opp, &n_opp) || n_opp == 0 || !PyTuple_CheckExact(args[5]) ||
        PyTuple_GET_SIZE(args[5]) != N_FEATURES)
        return fallback(eval_fallback, args, nargs);
    for (int k = 0; k < N_FEATURES; k++) {
        PyObject *item = PyTuple_GET_ITEM(args[5], k);
        if (!PyFloat_CheckExact(item)) return fallback(eval_fallback, args, nargs);
        w[k] = PyFloat_AS_DOUBLE(item);
    }
    long target, captured_cards;
    if (!read_long(args[1], &target) || !read_long(args[2], &captured_cards))
        return fallback(eval_fallback, args, nargs);
    double captured = (double)captured_cards, chip = PyFloat_AS_DOUBLE(args[3]);
    long fewest = opp[0];
    for (Py_ssize_t t = 1; t < n_opp; t++)
        if (opp[t] < fewest) fewest = opp[t];
    if (fewest < 1) fewest = 1;
    double safe[MAX_CARDS + 1];
    for (Py_ssize_t m = 0; m <= n; m++) {
        long below = 0;
        for (Py_ssize_t t = 0; t < n_opp; t++) below += opp[t] < m;
        safe[m] = (double)below / (double)n_opp;
    }
    int found = 0;
    Py_ssize_t best_i = 0, best_j = 0;
    long best_key = 0;
    double best_value = -Py_HUGE_VAL;
    for (Py_ssize_t i = 0; i < n; i++) {
        long step = 0;
        for (Py_ssize_t end = i + 1; end <= n; end++) {
            long key;
            if (!group_at(h, i, end, &step, &key)) break;
            if (key <= target) continue;
            Py_ssize_t m = without(h, n, i, end, left);
            Shape s = shape_of(left, m, 1.25);
            double groups = (double)s.groups, lone = (double)s.lone;
            double strength = (double)s.best / 32.0, count = (double)m;
            double value = w[0] * groups;
            value = value + w[1] * lone;
            value = value + w[2] * strength;
            value = value + w[3] * count;
            value = value + w[4] * s.measure;
            value = value + w[5] * (count / (double)fewest);
            value = value + w[6] * captured;
            value = value + w[7] * chip;
            value = value + w[8] * 1.0;
            value = value + w[9] * ((double)key / 32.0);
            value = value + w[10] * safe[end - i];
            value = value + w[11] * 0.0;
            value = value + w[12] * 0.0;
            value = value + w[13] * (m ? 0.0 : 1.0);
            if (value > best_value) {
                found = 1;
                best_value = value;
                best_i = i;
                best_j = end;
                best_key = key;
            }
        }
    }
    if (!found) Py_RETURN_NONE;
    return Py_BuildValue("(nnl)", best_i, best_j, best_key);
}

/* ---- playouts (parlour.bots.scout.search.play_round_out) ---------------------------------- */

#define MAX_SEATS 8
#define MAX_MOVES 1000000

typedef struct {
    long up[MAX_CARDS], down[MAX_CARDS];
    Py_ssize_t n;
} Cards;

/* rules.group_key of the numbers up[0..n). */
static long cards_key(const long *v, Py_ssize_t n) {
    if (n == 0) return 0;
    long first = v[0];
    if (n == 1) return 48 + first;
    long step = v[1] - first;
    if (step < -1 || step > 1) return 0;
    for (Py_ssize_t i = 2; i < n; i++)
        if (v[i] - v[i - 1] != step) return 0;
    if (step == 0) return ((long)n << 5) + 16 + first;
    return ((long)n << 5) + (step == 1 ? first : v[n - 1]);
}

/* A tuple of (up, down) tuples of small ints into c; 0 if it is not one (or holds more than
 * room cards). */
static int read_cards(PyObject *seq, Cards *c, Py_ssize_t room) {
    if (!PyTuple_CheckExact(seq)) return 0;
    Py_ssize_t len = PyTuple_GET_SIZE(seq);
    if (len > room) return 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *card = PyTuple_GET_ITEM(seq, i);
        if (!PyTuple_CheckExact(card) || PyTuple_GET_SIZE(card) != 2) return 0;
        long up, down;
        if (!read_long(PyTuple_GET_ITEM(card, 0), &up) ||
            !read_long(PyTuple_GET_ITEM(card, 1), &down) || up < -1000 || up > 1000 ||
            down < -1000 || down > 1000)
            return 0;
        c->up[i] = up;
        c->down[i] = down;
    }
    c->n = len;
    return 1;
}

/* A tuple of `count` small ints into out; 0 if it is not one. */
static int read_ints(PyObject *seq, long *out, Py_ssize_t count) {
    Py_ssize_t n = 0;
    if (!read_hand(seq, out, &n) || n != count) return 0;
    return 1;
}

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

/* search.play_round_out for 3+ players: from the position given, every seat plays
 * search.playout_move (the longest Show with probability 0.85 when it could also scout, a random
 * one among equals; else a random plain Scout, its card put beside a number within one of it
 * when there is such a place) and the engine applies it (rules._apply_show, _apply_scout,
 * _end_round), to the round's end. Returns `seat`'s round points minus the other seats' mean;
 * None for input it does not take. Arguments: hands (per seat a tuple of (up, down) cards),
 * active, owner (-1 for none), turn, scouts, pending, piles (cards captured per seat), chips,
 * seat, random, randrange (the generator's bound methods). */
static PyObject *rollout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Cards hands[MAX_SEATS]; /* on the stack: a draw may let another thread in here */
    Cards active;
    long piles[MAX_SEATS], chips[MAX_SEATS];
    long owner, turn, scouts, pending, seat;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "rollout(hands, active, owner, turn, scouts, pending, "
                                         "piles, chips, seat, random, randrange)");
        return NULL;
    }
    if (!PyTuple_CheckExact(args[0])) Py_RETURN_NONE;
    Py_ssize_t players = PyTuple_GET_SIZE(args[0]);
    if (players < 3 || players > MAX_SEATS) Py_RETURN_NONE;
    Py_ssize_t total = 0;
    for (Py_ssize_t s = 0; s < players; s++) {
        if (!read_cards(PyTuple_GET_ITEM(args[0], s), &hands[s], MAX_CARDS)) Py_RETURN_NONE;
        total += hands[s].n;
    }
    if (!read_cards(args[1], &active, MAX_CARDS)) Py_RETURN_NONE;
    total += active.n;
    if (total > MAX_CARDS || !read_long(args[2], &owner) || !read_long(args[3], &turn) ||
        !read_long(args[4], &scouts) || !PyBool_Check(args[5]) || !read_long(args[8], &seat) ||
        !read_ints(args[6], piles, players) || !read_ints(args[7], chips, players) ||
        turn < 0 || turn >= players || seat < 0 || seat >= players || owner < -1 ||
        owner >= players || (owner == -1 && active.n > 0) || scouts < 0)
        Py_RETURN_NONE;
    pending = args[5] == Py_True;
    PyObject *random = args[9], *randrange = args[10];
    long active_key = cards_key(active.up, active.n);
    long exempt = -1;
    Py_ssize_t starts[MAX_CARDS];
    for (long move = 0;; move++) {
        if (move >= MAX_MOVES) {
            PyErr_SetString(PyExc_RuntimeError, "a playout did not end");
            return NULL;
        }
        Cards *h = &hands[turn];
        Py_ssize_t n = h->n;
        /* the longest Shows beating the table, by their first card (legal_shows' order) */
        Py_ssize_t longest = 0, count = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            long step = 0;
            for (Py_ssize_t end = i + 1; end <= n; end++) {
                long key;
                if (!group_at(h->up, i, end, &step, &key)) break;
                if (key <= active_key) continue;
                Py_ssize_t length = end - i;
                if (length > longest) {
                    longest = length;
                    count = 0;
                }
                if (length == longest) starts[count++] = i;
            }
        }
        int show;
        if (pending || active.n == 0) {
            if (count == 0) {
                PyErr_SetString(PyExc_ValueError, "empty range in randrange(0)");
                return NULL;
            }
            show = 1;
        } else if (count > 0) {
            PyObject *r = PyObject_CallNoArgs(random);
            if (r == NULL) return NULL;
            double x = PyFloat_AsDouble(r);
            Py_DECREF(r);
            if (x == -1.0 && PyErr_Occurred()) return NULL;
            show = x < 0.85;
        } else {
            show = 0;
        }
        if (show) {
            Py_ssize_t pick;
            if (!draw_below(randrange, count, &pick)) return NULL;
            Py_ssize_t start = starts[pick], length = longest;
            piles[turn] += (long)active.n;
            for (Py_ssize_t t = 0; t < length; t++) {
                active.up[t] = h->up[start + t];
                active.down[t] = h->down[start + t];
            }
            active.n = length;
            active_key = cards_key(active.up, active.n);
            for (Py_ssize_t t = start + length; t < n; t++) {
                h->up[t - length] = h->up[t];
                h->down[t - length] = h->down[t];
            }
            h->n = n - length;
            owner = turn;
            scouts = 0;
            pending = 0;
            if (h->n == 0) break; /* S13.1: the hand is empty; no one is exempt */
            turn = (turn + 1) % players;
            continue;
        }
        /* a plain Scout: SCOUTS[n] lists left then right, unrotated then rotated, by insert */
        Py_ssize_t pick, slots = n + 1;
        if (!draw_below(randrange, 4 * slots, &pick)) return NULL;
        int left = pick < 2 * slots, rotate = (pick / slots) % 2;
        Py_ssize_t insert = pick % slots;
        Py_ssize_t at = left ? 0 : active.n - 1;
        long up = rotate ? active.down[at] : active.up[at];
        long down = rotate ? active.up[at] : active.down[at];
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
        for (Py_ssize_t t = n; t > insert; t--) {
            h->up[t] = h->up[t - 1];
            h->down[t] = h->down[t - 1];
        }
        h->up[insert] = up;
        h->down[insert] = down;
        h->n = n + 1;
        if (left) {
            for (Py_ssize_t t = 1; t < active.n; t++) {
                active.up[t - 1] = active.up[t];
                active.down[t - 1] = active.down[t];
            }
        }
        active.n -= 1;
        active_key = cards_key(active.up, active.n);
        chips[owner] += 1; /* S11 */
        turn = (turn + 1) % players;
        scouts += 1;
        if (scouts == players - 1) { /* S13.2: scouted out; the show's owner pays nothing */
            exempt = owner;
            break;
        }
    }
    long points[MAX_SEATS], others = 0;
    for (Py_ssize_t s = 0; s < players; s++) {
        points[s] = piles[s] + chips[s] + (s == exempt ? 0 : -(long)hands[s].n);
        if (s != seat) others += points[s];
    }
    return PyFloat_FromDouble((double)points[seat] - (double)others / (double)(players - 1));
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

/* The first six terms of features.plain_scores's sum, for the hand v[0..m) a move leaves:
 * groups, lone cards, the strongest group, cards, the group measure, cards / fewest. */
static double hand_terms(const double *w, const long *v, Py_ssize_t m, long fewest) {
    Shape s = shape_of(v, m, 1.25);
    double count = (double)m;
    double value = w[0] * (double)s.groups;
    value = value + w[1] * (double)s.lone;
    value = value + w[2] * ((double)s.best / 32.0);
    value = value + w[3] * count;
    value = value + w[4] * s.measure;
    return value + w[5] * (count / (double)fewest);
}

/* features.plain_scores for options that are all Shows and plain Scouts (the types given):
 * each option's value, term by term in the Python function's order; None for anything else
 * (a Scout & Show, unusual input: the caller scores them in Python). Arguments: hand (a tuple
 * of numbers), active (a tuple of (up, down) cards), opponents (their hand sizes), ss_kept,
 * ends, options (a list), w (the 14 weights), Show, Scout. */
static PyObject *plain_scores(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long h[MAX_CARDS + 1], rest[MAX_CARDS + 1], opp[MAX_CARDS];
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
    double ss_kept = PyFloat_AS_DOUBLE(args[3]);
    int ends = args[4] == Py_True;
    Py_ssize_t players = n_opp + 1;
    long fewest = opp[0];
    for (Py_ssize_t t = 1; t < n_opp; t++)
        if (opp[t] < fewest) fewest = opp[t];
    if (fewest < 1) fewest = 1;
    double captured = (double)active.n;
    double chip = players == 2 ? 0.6 : 1.0 / (double)(players - 1 > 1 ? players - 1 : 1);
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
            Py_ssize_t m = without(h, n, start, start + length, rest);
            long below = 0;
            for (Py_ssize_t t = 0; t < n_opp; t++) below += opp[t] < length;
            value = hand_terms(w, rest, m, fewest);
            value = value + w[6] * captured;
            value = value + w[9] * ((double)cards_key(h + start, length) / 32.0);
            value = value + w[10] * ((double)below / (double)n_opp);
            value = value + w[11] * ss_kept;
            value = value + w[13] * (m ? 0.0 : 1.0);
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
            long number = rot ? active.down[at] : active.up[at];
            Py_ssize_t m = 0;
            for (Py_ssize_t t = 0; t < insert; t++) rest[m++] = h[t];
            rest[m++] = number;
            for (Py_ssize_t t = insert; t < n; t++) rest[m++] = h[t];
            value = hand_terms(w, rest, m, fewest);
            value = value + w[7] * chip;
            value = value + w[8] * 1.0;
            value = value + w[11] * ss_kept;
            value = value + w[12] * (ends ? (double)m : 0.0);
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

static PyObject *configure(PyObject *self, PyObject *args) {
    const char *name;
    PyObject *to;
    if (!PyArg_ParseTuple(args, "sO", &name, &to)) return NULL;
    PyObject **slot = strcmp(name, "hand_shape") == 0            ? &shape_fallback
                      : strcmp(name, "best_following_show") == 0 ? &follow_fallback
                      : strcmp(name, "eval_following_show") == 0 ? &eval_fallback
                                                                 : NULL;
    if (slot == NULL) {
        PyErr_Format(PyExc_ValueError, "no compiled function %s", name);
        return NULL;
    }
    Py_XSETREF(*slot, Py_NewRef(to));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(name, fallback): the Python function given unusual input to `name`"},
    {"eval_following_show", (PyCFunction)(void (*)(void))eval_following_show, METH_FASTCALL,
     "eval_following_show(held, target, captured, chip, opponents, w) -> (i, j, key) | None"},
    {"plain_scores", (PyCFunction)(void (*)(void))plain_scores, METH_FASTCALL,
     "plain_scores(hand, active, opponents, ss_kept, ends, options, w, Show, Scout) -> "
     "list[float] | None"},
    {"rollout", (PyCFunction)(void (*)(void))rollout, METH_FASTCALL,
     "rollout(hands, active, owner, turn, scouts, pending, piles, chips, seat, random, "
     "randrange) -> float | None"},
    {"hand_shape", (PyCFunction)(void (*)(void))hand_shape, METH_FASTCALL,
     "hand_shape(values, set_bonus=1.25) -> (groups, lone, best, measure)"},
    {"best_following_show", (PyCFunction)(void (*)(void))best_following_show, METH_FASTCALL,
     "best_following_show(held, target, captured, per_group, lone_card, strength, captured_w, "
     "tempo, hand_card) -> float"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cheur", "The SCOUT bots' hand arithmetic in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__cheur(void) {
    str_start = PyUnicode_InternFromString("start");
    str_length = PyUnicode_InternFromString("length");
    str_end = PyUnicode_InternFromString("end");
    str_rotate = PyUnicode_InternFromString("rotate");
    str_insert = PyUnicode_InternFromString("insert");
    if (!str_start || !str_length || !str_end || !str_rotate || !str_insert) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "ABI_VERSION", ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
