/* What the two halves of the SCOUT bots' C extension share (_cheur.c: the hand arithmetic and
 * the module; _cheur_search.c: the searches' playouts and the opponent model's scores): reading
 * Python values, groups and hand shapes. */

#ifndef PARLOUR_CHEUR_H
#define PARLOUR_CHEUR_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MAX_CARDS 64
#define MAX_SEATS 8

/* The numbers of a tuple of ints (at most MAX_CARDS, each within +-1000); 0 if it is not one. */
static inline int read_hand(PyObject *seq, long *out, Py_ssize_t *n) {
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
static inline int read_long(PyObject *obj, long *out) {
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
static inline int group_at(const long *h, Py_ssize_t i, Py_ssize_t end, long *step, long *key) {
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
static inline Py_ssize_t without(const long *h, Py_ssize_t n, Py_ssize_t i, Py_ssize_t end, long *left) {
    Py_ssize_t m = 0;
    for (Py_ssize_t t = 0; t < i; t++) left[m++] = h[t];
    for (Py_ssize_t t = end; t < n; t++) left[m++] = h[t];
    return m;
}

/* heuristic.hand_shape: maximal groups, lone cards, the strongest group's key, the measure. */
static inline Shape shape_of(const long *v, Py_ssize_t n, double set_bonus) {
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


typedef struct {
    long up[MAX_CARDS], down[MAX_CARDS];
    Py_ssize_t n;
} Cards;

/* rules.group_key of the numbers up[0..n). */
static inline long cards_key(const long *v, Py_ssize_t n) {
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
static inline int read_cards(PyObject *seq, Cards *c, Py_ssize_t room) {
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
static inline int read_ints(PyObject *seq, long *out, Py_ssize_t count) {
    Py_ssize_t n = 0;
    if (!read_hand(seq, out, &n) || n != count) return 0;
    return 1;
}


/* The first six terms of features.plain_scores's sum, for the hand v[0..m) a move leaves:
 * groups, lone cards, the strongest group, cards, the group measure, cards / fewest. */
static inline double hand_terms(const double *w, const long *v, Py_ssize_t m, long fewest) {
    Shape s = shape_of(v, m, 1.25);
    double count = (double)m;
    double value = w[0] * (double)s.groups;
    value = value + w[1] * (double)s.lone;
    value = value + w[2] * ((double)s.best / 32.0);
    value = value + w[3] * count;
    value = value + w[4] * s.measure;
    return value + w[5] * (count / (double)fewest);
}

/* _cheur_search.c's functions of the module, and the attribute names it reads (set up once). */
PyObject *cheur_rollout(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *cheur_model_rollout(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *cheur_plain_scores(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
int cheur_search_init(void);

#endif
