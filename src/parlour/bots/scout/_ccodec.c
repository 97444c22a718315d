/* SCOUT's observation and legal-action mask in compiled code (optional).
 *
 * The same bytes as the pure-Python encoder of parlour.bots.scout.codec (tests compare them at
 * every step of many games, and the mask with the engine's legal_actions): read straight from
 * an engine State's slots, written into a new bytearray. Anything unusual (another type than
 * the engine's State, a hand too long, a card outside SCOUT's deck, a value of an unexpected
 * type) is handed to the pure-Python encoder, which gives the same result or the same error.
 *
 * Layout and action indices: see codec.py (OBS_SIZE 1219 float32 values, N_ACTIONS 820).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#define ABI_VERSION 1

#define HAND_SLOTS 45
#define INSERTS (HAND_SLOTS + 1)
#define MAX_GROUP 10
#define MAX_SEATS 5
#define CARD_WIDTH 21
#define SEAT_WIDTH 8
#define SHOW_BASE 2
#define SCOUT_BASE (SHOW_BASE + HAND_SLOTS * MAX_GROUP)
#define SCOUT_SHOW_BASE (SCOUT_BASE + 4 * INSERTS)
#define N_ACTIONS (SCOUT_SHOW_BASE + 4 * INSERTS)

#define OFF_HAND 0
#define OFF_ACTIVE (OFF_HAND + HAND_SLOTS * CARD_WIDTH)
#define OFF_KIND (OFF_ACTIVE + MAX_GROUP * CARD_WIDTH)
#define OFF_OWNER (OFF_KIND + 4)
#define OFF_SEATS (OFF_OWNER + MAX_SEATS + 1)
#define OFF_PHASE (OFF_SEATS + MAX_SEATS * SEAT_WIDTH)
#define OFF_ROUND (OFF_PHASE + 4)
#define OFF_PLAYERS (OFF_ROUND + MAX_SEATS)
#define OFF_ASIDE (OFF_PLAYERS + 4)
#define OBS_SIZE (OFF_ASIDE + 1)

#define FLIP_PHASE 0
#define PLAY_PHASE 1
#define HIGH 10.0

/* The State slots read here, in this order. */
enum {
    A_HANDS, A_ACTIVE, A_ACTIVE_KEY, A_OWNER, A_PHASE, A_TURN, A_PILES, A_CHIPS, A_SCOUT_SHOW,
    A_FLIPS, A_TOTALS, A_PENDING, A_SCOUTS, A_ROUND, A_SET_ASIDE, N_ATTRS
};
static const char *attr_names[N_ATTRS] = {
    "hands", "active", "active_key", "owner", "phase", "turn", "piles", "chips", "scout_show",
    "flips", "totals", "pending", "scouts", "round", "set_aside",
};

static PyTypeObject *state_type = NULL;
static Py_ssize_t offsets[N_ATTRS];
static PyObject *mask_fallback = NULL;
static PyObject *observation_fallback = NULL;

/* Returned by the readers below when the pure-Python encoder must take over. */
#define UNUSUAL (-1000000)

static inline PyObject *slot(PyObject *state, int attr) {
    return *(PyObject **)((char *)state + offsets[attr]); /* borrowed; NULL if unset */
}

/* A small exact int (not a bool), or UNUSUAL. */
static inline long small_int(PyObject *o) {
    if (o == NULL || !PyLong_CheckExact(o)) return UNUSUAL;
    int overflow;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || v <= UNUSUAL || v >= -UNUSUAL) return UNUSUAL;
    return v;
}

/* 1 / 0 for True / False, UNUSUAL for anything else. */
static inline int exact_bool(PyObject *o) {
    if (o == Py_True) return 1;
    if (o == Py_False) return 0;
    return UNUSUAL;
}

/* A card (up, down) with both numbers in 1..10; 0 if it is not one. */
static inline int read_card(PyObject *card, int *up, int *down) {
    if (!PyTuple_CheckExact(card) || PyTuple_GET_SIZE(card) != 2) return 0;
    long u = small_int(PyTuple_GET_ITEM(card, 0));
    long d = small_int(PyTuple_GET_ITEM(card, 1));
    if (u < 1 || u > 10 || d < 1 || d > 10) return 0;
    *up = (int)u;
    *down = (int)d;
    return 1;
}

/* The cards of a tuple (at most `limit`): their numbers, their count; -1 if unusual. */
static Py_ssize_t read_cards(PyObject *cards, Py_ssize_t limit, int *ups, int *downs) {
    if (cards == NULL || !PyTuple_CheckExact(cards)) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(cards);
    if (n > limit) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!read_card(PyTuple_GET_ITEM(cards, i), &ups[i], &downs[i])) return -1;
    }
    return n;
}

static inline Py_ssize_t tuple_len(PyObject *o) {
    return (o != NULL && PyTuple_CheckExact(o)) ? PyTuple_GET_SIZE(o) : -1;
}

/* group_key (rules.py): the strength of the numbers as a group, 0 if they are not one. */
static int group_key(const int *values, Py_ssize_t n) {
    if (n == 0) return 0;
    int first = values[0];
    if (n == 1) return 48 + first;
    int step = values[1] - first;
    if (step < -1 || step > 1) return 0;
    for (Py_ssize_t i = 2; i < n; i++) {
        if (values[i] - values[i - 1] != step) return 0;
    }
    if (step == 0) return (int)((n << 5) + 16 + first);
    return (int)((n << 5) + (step == 1 ? first : values[n - 1]));
}

/* best_key (rules.py): the strength of the strongest group of the numbers. */
static int best_key(const int *values, Py_ssize_t n) {
    int best = 0, length = 0, step = 99, prev = -99;
    for (Py_ssize_t j = 0; j < n; j++) {
        int v = values[j];
        int d = v - prev;
        prev = v;
        if (d == step) {
            length += 1;
        } else if (-1 <= d && d <= 1) {
            length = 2;
            step = d;
        } else {
            length = 1;
            step = 99;
        }
        int key = step == 1 ? (length << 5) + v - length + 1
                            : (length << 5) + (step == -1 ? v : 16 + v);
        if (key > best) best = key;
    }
    return best;
}

static PyObject *fall_back(PyObject *fallback, PyObject *const *args, Py_ssize_t nargs) {
    if (fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "parlour.bots.scout._ccodec is not configured");
        return NULL;
    }
    return PyObject_Vectorcall(fallback, args, nargs, NULL);
}

static int check_args(Py_ssize_t nargs, const char *name) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes 2 arguments (state, seat), not %zd", name,
                     nargs);
        return 0;
    }
    return 1;
}

/* legal_mask(state, seat) -> bytearray: codec._legal_mask_bytes_py's bytes. */
static PyObject *legal_mask(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (!check_args(nargs, "legal_mask")) return NULL;
    PyObject *state = args[0];
    long seat = small_int(args[1]);
    if (state_type == NULL || Py_TYPE(state) != state_type || seat == UNUSUAL)
        return fall_back(mask_fallback, args, nargs);
    long phase = small_int(slot(state, A_PHASE));
    if (phase == UNUSUAL) return fall_back(mask_fallback, args, nargs);
    PyObject *out = PyByteArray_FromStringAndSize(NULL, N_ACTIONS);
    if (out == NULL) return NULL;
    char *mask = PyByteArray_AS_STRING(out);
    memset(mask, 0, N_ACTIONS);
    if (phase != PLAY_PHASE) {
        PyObject *flips = slot(state, A_FLIPS);
        Py_ssize_t n = tuple_len(flips);
        if (n < 0) goto unusual;
        if (phase == FLIP_PHASE && 0 <= seat && seat < n && PyTuple_GET_ITEM(flips, seat) == Py_None)
            mask[0] = mask[1] = 1;
        return out;
    }
    long turn = small_int(slot(state, A_TURN));
    if (turn == UNUSUAL) goto unusual;
    if (seat != turn) return out;
    PyObject *hands = slot(state, A_HANDS);
    Py_ssize_t players = tuple_len(hands);
    if (seat < 0 || seat >= players) goto unusual;
    int ups[HAND_SLOTS + 1], downs[HAND_SLOTS + 1];
    Py_ssize_t n = read_cards(PyTuple_GET_ITEM(hands, seat), HAND_SLOTS, ups, downs);
    long active_key = small_int(slot(state, A_ACTIVE_KEY));
    int pending = exact_bool(slot(state, A_PENDING));
    PyObject *active = slot(state, A_ACTIVE);
    Py_ssize_t k = tuple_len(active);
    if (n < 0 || active_key == UNUSUAL || pending == UNUSUAL || k < 0) goto unusual;
    /* Shows: every group beating the active show (legal_shows). */
    for (Py_ssize_t start = 0; start < n; start++) {
        Py_ssize_t longest = n - start < MAX_GROUP ? n - start : MAX_GROUP;
        for (Py_ssize_t length = 1; length <= longest; length++) {
            int key = group_key(ups + start, length);
            if (key == 0) break; /* no longer group from here is one either */
            if (key > active_key) mask[SHOW_BASE + start * MAX_GROUP + length - 1] = 1;
        }
    }
    if (pending || k == 0) return out;
    int scout_shows = 0;
    if (players == 2) {
        PyObject *chips = slot(state, A_CHIPS);
        if (tuple_len(chips) != players) goto unusual;
        long c = small_int(PyTuple_GET_ITEM(chips, seat));
        if (c == UNUSUAL) goto unusual;
        if (c <= 0) return out;
    } else {
        PyObject *shows = slot(state, A_SCOUT_SHOW);
        if (tuple_len(shows) != players) goto unusual;
        scout_shows = exact_bool(PyTuple_GET_ITEM(shows, seat));
        if (scout_shows == UNUSUAL) goto unusual;
    }
    /* Plain Scouts: either end, rotated or not, into any of the n + 1 positions. */
    for (int row = 0; row < 4; row++) memset(mask + SCOUT_BASE + row * INSERTS, 1, n + 1);
    if (!scout_shows) return out;
    /* Scout & Show: the Scout halves after which some Show beats the reduced show. */
    int aups[MAX_GROUP + 1], adowns[MAX_GROUP + 1];
    if (read_cards(active, MAX_GROUP, aups, adowns) != k) goto unusual;
    int hand[HAND_SLOTS + 2];
    for (int e = 0; e < 2; e++) {
        Py_ssize_t taken = e == 0 ? 0 : k - 1;
        int rest_key = group_key(e == 0 ? aups + 1 : aups, k - 1);
        for (int r = 0; r < 2; r++) {
            int v = r ? adowns[taken] : aups[taken];
            char *row = mask + SCOUT_SHOW_BASE + (e * 2 + r) * INSERTS;
            for (Py_ssize_t i = 0; i <= n; i++) {
                memcpy(hand, ups, i * sizeof(int));
                hand[i] = v;
                memcpy(hand + i + 1, ups + i, (n - i) * sizeof(int));
                if (best_key(hand, n + 1) > rest_key) row[i] = 1;
            }
        }
    }
    return out;
unusual:
    Py_DECREF(out);
    return fall_back(mask_fallback, args, nargs);
}

static inline void put_cards(float *at, const int *ups, const int *downs, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++, at += CARD_WIDTH) {
        at[0] = 1.0f;
        at[ups[i]] = 1.0f;
        at[10 + downs[i]] = 1.0f;
    }
}

/* observation(state, seat) -> bytearray: codec._observation_buffer_py's bytes. */
static PyObject *observation(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (!check_args(nargs, "observation")) return NULL;
    PyObject *state = args[0];
    long seat = small_int(args[1]);
    if (state_type == NULL || Py_TYPE(state) != state_type || seat == UNUSUAL)
        return fall_back(observation_fallback, args, nargs);
    PyObject *hands = slot(state, A_HANDS), *active = slot(state, A_ACTIVE);
    PyObject *piles = slot(state, A_PILES), *chips = slot(state, A_CHIPS);
    PyObject *shows = slot(state, A_SCOUT_SHOW), *flips = slot(state, A_FLIPS);
    PyObject *totals = slot(state, A_TOTALS);
    Py_ssize_t players = tuple_len(hands);
    if (players < 2 || players > MAX_SEATS || seat < 0 || seat >= players ||
        tuple_len(piles) != players || tuple_len(chips) != players ||
        tuple_len(shows) != players || tuple_len(flips) != players ||
        tuple_len(totals) != players)
        return fall_back(observation_fallback, args, nargs);
    int ups[HAND_SLOTS], downs[HAND_SLOTS], aups[MAX_GROUP], adowns[MAX_GROUP];
    Py_ssize_t size = read_cards(PyTuple_GET_ITEM(hands, seat), HAND_SLOTS, ups, downs);
    Py_ssize_t k = read_cards(active, MAX_GROUP, aups, adowns);
    long active_key = small_int(slot(state, A_ACTIVE_KEY));
    long phase = small_int(slot(state, A_PHASE));
    long turn = small_int(slot(state, A_TURN));
    long scouts = small_int(slot(state, A_SCOUTS));
    long rnd = small_int(slot(state, A_ROUND));
    int pending = exact_bool(slot(state, A_PENDING));
    PyObject *owner_obj = slot(state, A_OWNER);
    int no_owner = owner_obj == Py_None;
    long owner = no_owner ? 0 : small_int(owner_obj);
    Py_ssize_t aside = tuple_len(slot(state, A_SET_ASIDE));
    if (size < 0 || k < 0 || active_key == UNUSUAL || phase == UNUSUAL || turn == UNUSUAL ||
        scouts == UNUSUAL || rnd < 0 || pending == UNUSUAL || owner == UNUSUAL || aside < 0)
        return fall_back(observation_fallback, args, nargs);
    /* The seat blocks' values, checked before anything is written. */
    int play = phase == PLAY_PHASE, flipping = phase == FLIP_PHASE;
    float seat_values[MAX_SEATS * SEAT_WIDTH];
    for (Py_ssize_t r = 0; r < players; r++) {
        Py_ssize_t s = (seat + r) % players;
        Py_ssize_t hand_size = tuple_len(PyTuple_GET_ITEM(hands, s));
        Py_ssize_t captured = tuple_len(PyTuple_GET_ITEM(piles, s));
        long chip = small_int(PyTuple_GET_ITEM(chips, s));
        int show = exact_bool(PyTuple_GET_ITEM(shows, s));
        long total = small_int(PyTuple_GET_ITEM(totals, s));
        if (hand_size < 0 || captured < 0 || chip == UNUSUAL || show == UNUSUAL ||
            total == UNUSUAL)
            return fall_back(observation_fallback, args, nargs);
        int decided = PyTuple_GET_ITEM(flips, s) != Py_None;
        double c = (double)chip / 12, t = (double)total / 25;
        float *at = seat_values + r * SEAT_WIDTH;
        at[0] = 1.0f;
        at[1] = (float)((double)hand_size / 12);
        at[2] = (float)((double)captured / 12);
        at[3] = (float)(c <= HIGH ? c : HIGH);
        at[4] = (float)show;
        at[5] = (float)decided;
        at[6] = (float)(-HIGH <= t && t <= HIGH ? t : (t > 0 ? HIGH : -HIGH));
        at[7] = (float)((play && s == turn) || (flipping && !decided));
    }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, OBS_SIZE * sizeof(float));
    if (out == NULL) return NULL;
    float *obs = (float *)PyByteArray_AS_STRING(out);
    memset(obs, 0, OBS_SIZE * sizeof(float));
    put_cards(obs + OFF_HAND, ups, downs, size);
    put_cards(obs + OFF_ACTIVE, aups, adowns, k);
    float *kind = obs + OFF_KIND;
    if (k) {
        int is_set = k >= 2 && (active_key & 16);
        kind[0] = (float)((double)k / 10);
        kind[1] = (float)is_set;
        kind[2] = (float)(k >= 2 && !is_set);
    } else {
        kind[3] = 1.0f;
    }
    /* The owner relative to the seat (Python's modulo: in 0..players-1), MAX_SEATS for none. */
    long relative = no_owner || !k ? MAX_SEATS : ((owner - seat) % players + players) % players;
    obs[OFF_OWNER + relative] = 1.0f;
    memcpy(obs + OFF_SEATS, seat_values, players * SEAT_WIDTH * sizeof(float));
    float *ph = obs + OFF_PHASE;
    ph[0] = (float)flipping;
    ph[1] = (float)play;
    ph[2] = (float)pending;
    ph[3] = (float)((double)scouts / 4);
    obs[OFF_ROUND + (rnd < MAX_SEATS - 1 ? rnd : MAX_SEATS - 1)] = 1.0f;
    obs[OFF_PLAYERS + players - 2] = 1.0f;
    obs[OFF_ASIDE] = (float)((double)aside / 22);
    return out;
}

/* configure(State, mask_fallback, observation_fallback): what the functions read, and the
 * pure-Python encoders that take over for anything unusual. */
static PyObject *configure(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *type, *mask_fb, *obs_fb;
    if (!PyArg_ParseTuple(args, "O!OO:configure", &PyType_Type, &type, &mask_fb, &obs_fb))
        return NULL;
    Py_ssize_t found[N_ATTRS];
    for (int i = 0; i < N_ATTRS; i++) {
        PyObject *descr = PyObject_GetAttrString(type, attr_names[i]);
        if (descr == NULL) return NULL;
        int ok = Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
                 ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX;
        if (ok) found[i] = ((PyMemberDescrObject *)descr)->d_member->offset;
        Py_DECREF(descr);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", ((PyTypeObject *)type)->tp_name,
                         attr_names[i]);
            return NULL;
        }
    }
    memcpy(offsets, found, sizeof(offsets));
    Py_INCREF(type);
    Py_INCREF(mask_fb);
    Py_INCREF(obs_fb);
    Py_XSETREF(state_type, (PyTypeObject *)type);
    Py_XSETREF(mask_fallback, mask_fb);
    Py_XSETREF(observation_fallback, obs_fb);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(State, mask_fallback, observation_fallback)"},
    {"legal_mask", (PyCFunction)(void (*)(void))legal_mask, METH_FASTCALL,
     "legal_mask(state, seat) -> bytearray: 0/1 per action index"},
    {"observation", (PyCFunction)(void (*)(void))observation, METH_FASTCALL,
     "observation(state, seat) -> bytearray: the observation as native float32"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ccodec", "SCOUT's observation and mask in compiled code.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ccodec(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "ABI_VERSION", ABI_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "OBS_SIZE", OBS_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "N_ACTIONS", N_ACTIONS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
