/* View deltas in C: protocol/delta.py's diff, operation for operation (docs/protocol.md, "View deltas").
 *
 * protocol/delta.py is the definition; this is the same walk without the tuples, iterators and packed bytes the
 * interpreter (or mypyc) makes to run it: two maps walked side by side with PyDict_Next, a list's items compared by
 * identity, and the sizes its choices weigh reckoned from the values rather than packed. tests/protocol/
 * test_cdelta.py checks that it gives the very deltas delta.py gives, on random views and on every view of random
 * matches. Built with the compiled engine (scripts/build-engine); without it, delta.py's own walk runs.
 *
 * Sizes and "the same on the wire" follow msgpack's packer as delta.py's _size uses it (use_bin_type, 64-bit
 * floats). A value of a type this file does not know (anything but None, bool, int, float, str, bytes, list, tuple
 * and dict, exactly) is packed by the function given to set_packer, as delta.py would.
 *
 * The maps and lists are walked in place, their items borrowed: what is compared must not change them while it is
 * compared. Views are plain data (maps, lists, str, numbers), whose comparisons run no Python code: the server
 * passes nothing else.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

enum { OP_SET = 0, OP_REMOVE = 1, OP_MAP = 2, OP_SPLICE = 3, OP_ITEMS = 4 };
#define SHORT 4 /* delta.SHORT */
#define LOOK 4  /* delta.LOOK */

static PyObject *packer = NULL; /* delta._size: packs what the C below does not know */

/* ---- sizes and wire equality, as msgpack packs ---- */

static Py_ssize_t fallback_size(PyObject *value) {
    if (packer == NULL) {
        PyErr_Format(PyExc_TypeError, "cannot size a %.100s without a packer", Py_TYPE(value)->tp_name);
        return -1;
    }
    PyObject *packed = PyObject_CallOneArg(packer, value);
    if (packed == NULL) return -1;
    if (!PyBytes_Check(packed)) {
        Py_DECREF(packed);
        PyErr_SetString(PyExc_TypeError, "the packer did not return bytes");
        return -1;
    }
    Py_ssize_t size = PyBytes_GET_SIZE(packed);
    Py_DECREF(packed);
    return size;
}

static Py_ssize_t header(Py_ssize_t n) { return n < 16 ? 1 : n < 0x10000 ? 3 : 5; }

static Py_ssize_t str_size(PyObject *value) {
    Py_ssize_t n;
    if (PyUnicode_IS_ASCII(value)) {
        n = PyUnicode_GET_LENGTH(value);
    } else if (PyUnicode_AsUTF8AndSize(value, &n) == NULL) {
        return -1;
    }
    return n + (n < 32 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5);
}

static Py_ssize_t int_size(PyObject *value) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(value);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        return 9;
    }
    if (overflow < 0) {
        PyErr_SetString(PyExc_OverflowError, "int too big to convert");
        return -1;
    }
    if (v < -32) return v < -32768 ? (v < -2147483648LL ? 9 : 5) : (v < -128 ? 3 : 2);
    if (v < 128) return 1;
    return v < 0x10000 ? (v < 0x100 ? 2 : 3) : (v < 0x100000000LL ? 5 : 9);
}

/* The bytes `value` packs to. */
static Py_ssize_t packed_size(PyObject *value) {
    PyTypeObject *type = Py_TYPE(value);
    if (value == Py_None || value == Py_True || value == Py_False) return 1;
    if (type == &PyLong_Type) return int_size(value);
    if (type == &PyUnicode_Type) return str_size(value);
    if (type == &PyFloat_Type) return 9;
    if (type == &PyBytes_Type) {
        Py_ssize_t n = PyBytes_GET_SIZE(value);
        return n + (n < 0x100 ? 2 : n < 0x10000 ? 3 : 5);
    }
    if (type == &PyList_Type || type == &PyTuple_Type) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(value);
        PyObject **items = PySequence_Fast_ITEMS(value);
        if (Py_EnterRecursiveCall(" while sizing a view")) return -1;
        Py_ssize_t size = header(n);
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t one = packed_size(items[i]);
            if (one < 0) { size = -1; break; }
            size += one;
        }
        Py_LeaveRecursiveCall();
        return size;
    }
    if (type == &PyDict_Type) {
        Py_ssize_t pos = 0, size = header(PyDict_GET_SIZE(value));
        PyObject *key, *item;
        if (Py_EnterRecursiveCall(" while sizing a view")) return -1;
        while (PyDict_Next(value, &pos, &key, &item)) {
            Py_ssize_t k = packed_size(key), v = k < 0 ? -1 : packed_size(item);
            if (v < 0) { size = -1; break; }
            size += k + v;
        }
        Py_LeaveRecursiveCall();
        return size;
    }
    return fallback_size(value);
}

/* Whether two values that are already equal (==) pack alike: 1, 0, or -1 with an exception. Equal values pack
 * apart only where msgpack tells apart what Python's equality does not: a bool and an int, an int and a float, two
 * floats' signs of zero, the order of a map's keys. */
static int packed_alike(PyObject *a, PyObject *b);

static int packed_alike_by_packing(PyObject *a, PyObject *b) {
    if (packer == NULL) {
        PyErr_SetString(PyExc_TypeError, "cannot compare packings without a packer");
        return -1;
    }
    PyObject *pa = PyObject_CallOneArg(packer, a);
    if (pa == NULL) return -1;
    PyObject *pb = PyObject_CallOneArg(packer, b);
    if (pb == NULL) { Py_DECREF(pa); return -1; }
    int alike = PyObject_RichCompareBool(pa, pb, Py_EQ);
    Py_DECREF(pa);
    Py_DECREF(pb);
    return alike;
}

static int known(PyTypeObject *type) {
    return type == &PyLong_Type || type == &PyUnicode_Type || type == &PyFloat_Type || type == &PyBool_Type
        || type == Py_TYPE(Py_None) || type == &PyBytes_Type || type == &PyList_Type || type == &PyTuple_Type
        || type == &PyDict_Type;
}

static int packed_alike(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    PyTypeObject *ta = Py_TYPE(a), *tb = Py_TYPE(b);
    if (!known(ta) || !known(tb)) return packed_alike_by_packing(a, b);
    int seq_a = ta == &PyList_Type || ta == &PyTuple_Type, seq_b = tb == &PyList_Type || tb == &PyTuple_Type;
    if (seq_a && seq_b) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(a);
        if (n != PySequence_Fast_GET_SIZE(b)) return 0;
        int alike = 1;
        if (Py_EnterRecursiveCall(" while comparing a view")) return -1;
        for (Py_ssize_t i = 0; i < n && alike == 1; i++)
            alike = packed_alike(PySequence_Fast_ITEMS(a)[i], PySequence_Fast_ITEMS(b)[i]);
        Py_LeaveRecursiveCall();
        return alike;
    }
    if (ta != tb) return 0; /* bool and int, int and float: msgpack packs them apart */
    if (ta == &PyFloat_Type) {
        double x = PyFloat_AS_DOUBLE(a), y = PyFloat_AS_DOUBLE(b);
        return memcmp(&x, &y, sizeof x) == 0;
    }
    if (ta == &PyDict_Type) {
        if (PyDict_GET_SIZE(a) != PyDict_GET_SIZE(b)) return 0;
        Py_ssize_t pa = 0, pb = 0;
        PyObject *ka, *va, *kb, *vb;
        int alike = 1;
        if (Py_EnterRecursiveCall(" while comparing a view")) return -1;
        while (alike == 1 && PyDict_Next(a, &pa, &ka, &va) && PyDict_Next(b, &pb, &kb, &vb)) {
            alike = ka == kb ? 1 : PyObject_RichCompareBool(ka, kb, Py_EQ);
            if (alike == 1) alike = packed_alike(ka, kb);
            if (alike == 1) alike = va == vb ? 1 : PyObject_RichCompareBool(va, vb, Py_EQ);
            if (alike == 1) alike = packed_alike(va, vb);
        }
        Py_LeaveRecursiveCall();
        return alike;
    }
    return 1; /* equal ints, strs, bytes, None: packed alike */
}

/* delta._equal: the same object, or equal and packed alike. */
static int equal(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    int eq = PyObject_RichCompareBool(a, b, Py_EQ);
    if (eq != 1) return eq;
    return packed_alike(a, b);
}

static int is_part(PyObject *item) { return Py_IS_TYPE(item, &PyDict_Type) || Py_IS_TYPE(item, &PyList_Type); }

/* ---- operations ---- */

static PyObject *op_of(long kind, PyObject *value) {
    PyObject *code = PyLong_FromLong(kind);
    if (code == NULL) return NULL;
    if (value == NULL) {
        PyObject *op = PyList_New(1);
        if (op == NULL) { Py_DECREF(code); return NULL; }
        PyList_SET_ITEM(op, 0, code);
        return op;
    }
    PyObject *op = PyList_New(2);
    if (op == NULL) { Py_DECREF(code); return NULL; }
    Py_INCREF(value);
    PyList_SET_ITEM(op, 0, code);
    PyList_SET_ITEM(op, 1, value);
    return op;
}

/* Put `op` (stolen) in `ops` under `key`; 0, or -1 with an exception. */
static int put(PyObject *ops, PyObject *key, PyObject *op) {
    if (op == NULL) return -1;
    int failed = PyDict_SetItem(ops, key, op);
    Py_DECREF(op);
    return failed;
}

static PyObject *diff_maps(PyObject *old, PyObject *new);

/* delta._op: a new reference to the operation, Py_None (a new reference) when there is none, NULL on error. */
static PyObject *operation(PyObject *old, PyObject *new);

static PyObject *keyed(PyObject *old, PyObject *new) {
    PyObject *ops = PyDict_New(), *key, *value;
    if (ops == NULL) return NULL;
    Py_ssize_t pos = 0, added = 0;
    while (PyDict_Next(new, &pos, &key, &value)) {
        PyObject *was = PyDict_GetItemWithError(old, key);
        if (was == NULL) {
            if (PyErr_Occurred() || put(ops, key, op_of(OP_SET, value)) < 0) goto fail;
            added++;
            continue;
        }
        if (was == value) continue;
        PyObject *op = operation(was, value);
        if (op == NULL) goto fail;
        if (op == Py_None) { Py_DECREF(op); continue; }
        if (put(ops, key, op) < 0) goto fail;
    }
    if (PyDict_GET_SIZE(old) > PyDict_GET_SIZE(new) - added) {
        pos = 0;
        while (PyDict_Next(old, &pos, &key, &value)) {
            int in = PyDict_Contains(new, key);
            if (in < 0 || (in == 0 && put(ops, key, op_of(OP_REMOVE, NULL)) < 0)) goto fail;
        }
    }
    return ops;
fail:
    Py_DECREF(ops);
    return NULL;
}

static PyObject *diff_maps(PyObject *old, PyObject *new) {
    PyObject *ops = PyDict_New();
    if (ops == NULL) return NULL;
    Py_ssize_t po = 0, pn = 0;
    PyObject *key, *was, *same_key, *value;
    int more_old = 0, more_new = 0;
    for (;;) {
        more_old = PyDict_Next(old, &po, &key, &was);
        if (!more_old) break;
        more_new = PyDict_Next(new, &pn, &same_key, &value);
        if (!more_new) break;
        if (key != same_key) {
            Py_DECREF(ops);
            return keyed(old, new);
        }
        if (was == value) continue;
        PyObject *op = operation(was, value);
        if (op == NULL) goto fail;
        if (op == Py_None) { Py_DECREF(op); continue; }
        if (put(ops, key, op) < 0) goto fail;
    }
    /* the shorter map ran out: the longer one's keys from here on are its alone (a key taken from old in the step
     * that found new at its end is one of them) */
    if (more_old) {
        do {
            if (put(ops, key, op_of(OP_REMOVE, NULL)) < 0) goto fail;
        } while (PyDict_Next(old, &po, &key, &was));
    } else {
        while (PyDict_Next(new, &pn, &same_key, &value))
            if (put(ops, same_key, op_of(OP_SET, value)) < 0) goto fail;
    }
    return ops;
fail:
    Py_DECREF(ops);
    return NULL;
}

/* delta._changed */
static Py_ssize_t changed(PyObject *old, PyObject *new) {
    PyObject *key, *was, *same_key, *value;
    if (PyDict_GET_SIZE(old) == PyDict_GET_SIZE(new)) {
        Py_ssize_t po = 0, pn = 0, count = 0;
        int walked = 1;
        while (PyDict_Next(old, &po, &key, &was) && PyDict_Next(new, &pn, &same_key, &value)) {
            if (key != same_key) { walked = 0; break; }
            if (was != value) count++;
        }
        if (walked) return count;
    }
    Py_ssize_t pos = 0, count = 0;
    while (PyDict_Next(new, &pos, &key, &value)) {
        was = PyDict_GetItemWithError(old, key);
        if (was == NULL && PyErr_Occurred()) return -1;
        if (was != value) count++;
    }
    return count;
}

static int append_span(PyObject *spans, Py_ssize_t at, Py_ssize_t count, PyObject *items) {
    if (items == NULL) return -1;
    PyObject *a = PyLong_FromSsize_t(at), *c = PyLong_FromSsize_t(count);
    int failed = a == NULL || c == NULL || PyList_Append(spans, a) < 0 || PyList_Append(spans, c) < 0
        || PyList_Append(spans, items) < 0;
    Py_XDECREF(a);
    Py_XDECREF(c);
    Py_DECREF(items);
    return failed ? -1 : 0;
}

/* delta._anchored */
static PyObject *anchored(PyObject *old, PyObject *new, Py_ssize_t front, Py_ssize_t old_end, Py_ssize_t new_end) {
    PyObject *spans = PyList_New(0);
    if (spans == NULL) return NULL;
    PyObject **o = PySequence_Fast_ITEMS(old), **n = PySequence_Fast_ITEMS(new);
    Py_ssize_t i = front, start = front;
    for (Py_ssize_t j = front; j < new_end; j++) {
        Py_ssize_t at = -1;
        for (Py_ssize_t k = old_end - 1; k >= front; k--) /* the last of old's items that is this one, as a map of ids */
            if (o[k] == n[j]) { at = k; break; }
        if (at >= i) {
            if ((at > i || j > start) && append_span(spans, i, at - i, PyList_GetSlice(new, start, j)) < 0) goto fail;
            i = at + 1;
            start = j + 1;
        }
    }
    if ((i < old_end || start < new_end)
        && append_span(spans, i, old_end - i, PyList_GetSlice(new, start, new_end)) < 0) goto fail;
    return spans;
fail:
    Py_DECREF(spans);
    return NULL;
}

/* delta._spans */
static PyObject *find_spans(PyObject *old, PyObject *new, Py_ssize_t front, Py_ssize_t old_end, Py_ssize_t new_end) {
    PyObject **o = PySequence_Fast_ITEMS(old), **n = PySequence_Fast_ITEMS(new);
    for (Py_ssize_t k = front; k < old_end; k++)
        if (is_part(o[k])) return anchored(old, new, front, old_end, new_end);
    PyObject *spans = PyList_New(0);
    if (spans == NULL) return NULL;
    Py_ssize_t i = front, j = front;
    while (i < old_end || j < new_end) {
        if (i < old_end && j < new_end) {
            int eq = equal(o[i], n[j]);
            if (eq < 0) goto fail;
            if (eq) { i++; j++; continue; }
        }
        Py_ssize_t skip_old = old_end - i, skip_new = new_end - j;
        int found = 0;
        for (Py_ssize_t reach = 1; reach <= LOOK && !found; reach++) {
            for (Py_ssize_t d = 0; d <= reach; d++) {
                if (!(i + d < old_end && j + reach - d < new_end)) continue;
                int eq = equal(o[i + d], n[j + reach - d]);
                if (eq < 0) goto fail;
                if (eq) { skip_old = d; skip_new = reach - d; found = 1; break; }
            }
        }
        if (append_span(spans, i, skip_old, PyList_GetSlice(new, j, j + skip_new)) < 0) goto fail;
        i += skip_old;
        j += skip_new;
    }
    return spans;
fail:
    Py_DECREF(spans);
    return NULL;
}

/* delta._items_size */
static Py_ssize_t items_size(PyObject *items) {
    Py_ssize_t size = packed_size(items);
    return size < 0 ? -1 : size - header(PyList_GET_SIZE(items)) + 3;
}

static PyObject *pair_list(long kind, PyObject *list) {
    PyObject *op = op_of(kind, list);
    Py_DECREF(list);
    return op;
}

/* delta._list_op */
static PyObject *list_op(PyObject *old, PyObject *new) {
    Py_ssize_t n_old = PyList_GET_SIZE(old), n_new = PyList_GET_SIZE(new);
    Py_ssize_t most = n_old < n_new ? n_old : n_new, front = 0, back = 0;
    PyObject **o = PySequence_Fast_ITEMS(old), **n = PySequence_Fast_ITEMS(new);
    while (front < most) {
        if (o[front] != n[front]) {
            int eq = equal(o[front], n[front]);
            if (eq < 0) return NULL;
            if (!eq) break;
        }
        front++;
    }
    if (front == n_old && n_old == n_new) Py_RETURN_NONE;
    while (back < most - front) {
        PyObject *was = o[n_old - 1 - back], *now = n[n_new - 1 - back];
        if (was != now) {
            int eq = equal(was, now);
            if (eq < 0) return NULL;
            if (!eq) break;
        }
        back++;
    }
    int all_parts = 1, any_part = 0;
    for (Py_ssize_t k = 0; k < n_new; k++) {
        if (is_part(n[k])) any_part = 1; else all_parts = 0;
    }
    if (n_new <= SHORT && !any_part) return op_of(OP_SET, new);
    PyObject *spans = find_spans(old, new, front, n_old - back, n_new - back);
    if (spans == NULL) return NULL;
    Py_ssize_t n_spans = PyList_GET_SIZE(spans), added_count = 0;
    PyObject **s = PySequence_Fast_ITEMS(spans);
    int even = 1;
    for (Py_ssize_t at = 0; at < n_spans; at += 3) {
        Py_ssize_t count = PyLong_AsSsize_t(s[at + 1]), put_in = PyList_GET_SIZE(s[at + 2]);
        if (count != put_in) even = 0;
        added_count += put_in;
    }
    if (even) {
        PyObject *pairs = PyList_New(0);
        if (pairs == NULL) goto fail;
        for (Py_ssize_t at = 0; at < n_spans; at += 3) {
            Py_ssize_t from = PyLong_AsSsize_t(s[at]), count = PyLong_AsSsize_t(s[at + 1]);
            for (Py_ssize_t index = from; index < from + count; index++) {
                PyObject *op = operation(o[index], n[index]);
                if (op == NULL) { Py_DECREF(pairs); goto fail; }
                if (op == Py_None) { Py_DECREF(op); continue; }
                PyObject *where = PyLong_FromSsize_t(index);
                int failed = where == NULL || PyList_Append(pairs, where) < 0 || PyList_Append(pairs, op) < 0;
                Py_XDECREF(where);
                Py_DECREF(op);
                if (failed) { Py_DECREF(pairs); goto fail; }
            }
        }
        Py_DECREF(spans);
        if (PyList_GET_SIZE(pairs) == 0) { Py_DECREF(pairs); Py_RETURN_NONE; }
        if (all_parts) return pair_list(OP_ITEMS, pairs);
        Py_ssize_t patch = packed_size(pairs), whole = patch < 0 ? -1 : items_size(new);
        if (whole < 0) { Py_DECREF(pairs); return NULL; }
        if (patch < whole) return pair_list(OP_ITEMS, pairs);
        Py_DECREF(pairs);
        return op_of(OP_SET, new);
    }
    Py_ssize_t kept = n_new - added_count;
    if (!kept) { Py_DECREF(spans); return op_of(OP_SET, new); }
    int parts = added_count > 0 && all_parts;
    Py_ssize_t n_triples = n_spans / 3;
    if (parts) {
        Py_ssize_t least = 0;
        for (Py_ssize_t at = 2; at < n_spans; at += 3) {
            PyObject *items = s[at];
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(items); k++) {
                PyObject *x = PyList_GET_ITEM(items, k);
                least += 1 + (Py_IS_TYPE(x, &PyDict_Type) ? 2 * PyDict_GET_SIZE(x) : PyList_GET_SIZE(x));
            }
        }
        Py_ssize_t each = least / added_count;
        if (8 * n_triples + 1 < kept * (each > 1 ? each : 1)) return pair_list(OP_SPLICE, spans);
    }
    Py_ssize_t added_bytes = 0;
    for (Py_ssize_t at = 2; at < n_spans; at += 3) {
        PyObject *items = s[at];
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(items); k++) {
            Py_ssize_t one = packed_size(PyList_GET_ITEM(items, k));
            if (one < 0) goto fail;
            added_bytes += one;
        }
    }
    Py_ssize_t size = 4 + 8 * n_triples + added_bytes;
    Py_ssize_t each = parts ? added_bytes / added_count : 1;
    if (size < added_bytes + kept * (each > 1 ? each : 1) + 3) return pair_list(OP_SPLICE, spans);
    Py_ssize_t whole = items_size(new);
    if (whole < 0) goto fail;
    if (size < whole) return pair_list(OP_SPLICE, spans);
    Py_DECREF(spans);
    return op_of(OP_SET, new);
fail:
    Py_DECREF(spans);
    return NULL;
}

static PyObject *operation(PyObject *old, PyObject *new) {
    if (old == new) Py_RETURN_NONE;
    PyTypeObject *kind = Py_TYPE(new);
    if (kind != Py_TYPE(old)) return op_of(OP_SET, new);
    if (kind == &PyDict_Type) {
        PyObject *result;
        if (Py_EnterRecursiveCall(" while making a view delta")) return NULL;
        Py_ssize_t size = PyDict_GET_SIZE(new), moved = size > 2 ? changed(old, new) : 0;
        if (moved < 0) {
            result = NULL;
        } else if (size > 2 && 2 * moved > size) { /* most of the map is new: set whole, not looked into */
            int eq = PyObject_RichCompareBool(old, new, Py_EQ);
            if (eq == 1) eq = packed_alike(old, new);
            result = eq < 0 ? NULL : eq ? Py_NewRef(Py_None) : op_of(OP_SET, new);
        } else {
            PyObject *delta = diff_maps(old, new);
            if (delta == NULL || PyDict_GET_SIZE(delta) == 0) {
                Py_XDECREF(delta);
                result = delta == NULL ? NULL : Py_NewRef(Py_None);
            } else {
                result = pair_list(OP_MAP, delta);
            }
        }
        Py_LeaveRecursiveCall();
        return result;
    }
    if (kind == &PyList_Type) {
        if (Py_EnterRecursiveCall(" while making a view delta")) return NULL;
        PyObject *result = list_op(old, new);
        Py_LeaveRecursiveCall();
        return result;
    }
    int eq = PyObject_RichCompareBool(old, new, Py_EQ);
    if (eq < 0) return NULL;
    if (eq) Py_RETURN_NONE;
    return op_of(OP_SET, new);
}

/* ---- the module ---- */

static PyObject *diff(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "diff() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!PyDict_Check(args[0]) || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "diff() compares two dicts");
        return NULL;
    }
    return diff_maps(args[0], args[1]);
}

static PyObject *set_packer(PyObject *Py_UNUSED(module), PyObject *pack) {
    if (!PyCallable_Check(pack)) {
        PyErr_SetString(PyExc_TypeError, "set_packer() takes a callable");
        return NULL;
    }
    Py_XSETREF(packer, Py_NewRef(pack));
    Py_RETURN_NONE;
}

static PyObject *size(PyObject *Py_UNUSED(module), PyObject *value) {
    Py_ssize_t n = packed_size(value);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

static PyMethodDef methods[] = {
    {"diff", (PyCFunction)(void (*)(void))diff, METH_FASTCALL,
     "diff(old, new): the delta that turns map old into map new, as protocol.delta.diff makes it."},
    {"set_packer", set_packer, METH_O,
     "set_packer(pack): the function packing a value of a type this module does not know (msgpack's)."},
    {"size", size, METH_O, "size(value): the bytes value packs to, as msgpack packs it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "protocol._cdelta",
    "View deltas in C, the same as protocol.delta's (built with the compiled engine).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cdelta(void) { return PyModule_Create(&module_def); }
