/* Packing the frames of one broadcast as msgpack, in C, each map or list that several of them hold (the very same
 * object: the events every seat is told alike, the clocks, the cards both seats' deltas put on the pile) packed once.
 *
 * A Packer gives the bytes protocol/packing.py's packers give (msgpack with use_bin_type, and ormsgpack) for the
 * values the protocol holds: maps with str keys, lists and tuples, str, bytes, ints of up to 64 bits, floats as 64-bit,
 * bools and None. A value holding anything else is not packed here: pack() hands it to the fallback the Packer was
 * made with (protocol/packing.py's packer), or returns None without one. Each map and list it packs (below the top) is remembered by identity, with a reference to it, so that the
 * next time it meets the very same object it copies those bytes: the objects must not change while the Packer lives,
 * as no part of a view or an event does once made (protocol.delta relies on the same). close() forgets them all;
 * a Packer is made for one broadcast and closed at its end. tests/protocol/test_packing.py checks the bytes against
 * msgpack's. Built with the compiled engine (scripts/build-engine).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SMALL 16 /* a part that packs to fewer bytes is packed again each time: remembering it costs more */

typedef struct {
    PyObject *object;  /* the map or list, held */
    PyObject *owner;   /* the bytes of the frame it was packed in; NULL while that frame is being packed */
    Py_ssize_t offset, length;
} Part;

typedef struct {
    PyObject_HEAD
    PyObject *fallback; /* what packs a value this packer does not take (called with it), or NULL: pack() says None */
    Part *parts;
    Py_ssize_t count, capacity;
    Py_ssize_t *slots; /* open addressing over parts: index + 1, 0 free */
    Py_ssize_t n_slots;
} Packer;

typedef struct {
    char *data;
    Py_ssize_t size, room;
    char local[4096];
} Buffer;

/* ---- the parts remembered ---- */

static Py_ssize_t slot_of(Packer *self, PyObject *object) {
    size_t mask = (size_t)self->n_slots - 1, at = ((uintptr_t)object >> 4) * 0x9E3779B97F4A7C15ULL >> 7 & mask;
    while (self->slots[at] != 0 && self->parts[self->slots[at] - 1].object != object) at = (at + 1) & mask;
    return (Py_ssize_t)at;
}

static Part *find(Packer *self, PyObject *object) {
    if (self->count == 0) return NULL;
    Py_ssize_t index = self->slots[slot_of(self, object)];
    return index ? &self->parts[index - 1] : NULL;
}

static int rehash(Packer *self, Py_ssize_t n_slots) {
    Py_ssize_t *slots = PyMem_Calloc((size_t)n_slots, sizeof *slots);
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PyMem_Free(self->slots);
    self->slots = slots;
    self->n_slots = n_slots;
    for (Py_ssize_t i = 0; i < self->count; i++) self->slots[slot_of(self, self->parts[i].object)] = i + 1;
    return 0;
}

static int remember(Packer *self, PyObject *object, Py_ssize_t offset, Py_ssize_t length) {
    if (self->count == self->capacity) {
        Py_ssize_t capacity = self->capacity ? 2 * self->capacity : 64;
        Part *parts = PyMem_Realloc(self->parts, (size_t)capacity * sizeof *parts);
        if (parts == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        self->parts = parts;
        self->capacity = capacity;
    }
    if (2 * (self->count + 1) > self->n_slots && rehash(self, self->n_slots ? 2 * self->n_slots : 128) < 0) return -1;
    Py_INCREF(object);
    self->parts[self->count] = (Part){object, NULL, offset, length};
    self->count++;
    self->slots[slot_of(self, object)] = self->count;
    return 0;
}

/* Forget the parts from `keep` on (those of a frame that was not packed). */
static void forget(Packer *self, Py_ssize_t keep) {
    if (keep >= self->count) return;
    for (Py_ssize_t i = keep; i < self->count; i++) {
        Py_DECREF(self->parts[i].object);
        Py_XDECREF(self->parts[i].owner);
    }
    self->count = keep;
    if (self->slots != NULL) {
        memset(self->slots, 0, (size_t)self->n_slots * sizeof *self->slots);
        for (Py_ssize_t i = 0; i < self->count; i++) self->slots[slot_of(self, self->parts[i].object)] = i + 1;
    }
}

/* ---- msgpack ---- */

static int grow(Buffer *out, Py_ssize_t more) {
    Py_ssize_t room = out->room * 2;
    while (room < out->size + more) room *= 2;
    char *data;
    if (out->data == out->local) {
        data = PyMem_Malloc((size_t)room);
        if (data != NULL) memcpy(data, out->local, (size_t)out->size);
    } else {
        data = PyMem_Realloc(out->data, (size_t)room);
    }
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    out->data = data;
    out->room = room;
    return 0;
}

#define NEED(n) do { if (out->size + (n) > out->room && grow(out, (n)) < 0) return -1; } while (0)

static inline void put8(Buffer *out, unsigned char b) { out->data[out->size++] = (char)b; }

static inline void put_be(Buffer *out, unsigned long long v, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) out->data[out->size++] = (char)(v >> (8 * i));
}

static int pack_header(Buffer *out, Py_ssize_t n, unsigned char fix, unsigned char b16, unsigned char b32) {
    NEED(5);
    if (n < 16) {
        put8(out, fix | (unsigned char)n);
    } else if (n < 0x10000) {
        put8(out, b16);
        put_be(out, (unsigned long long)n, 2);
    } else {
        put8(out, b32);
        put_be(out, (unsigned long long)n, 4);
    }
    return 0;
}

static int pack_str(Buffer *out, PyObject *value) {
    Py_ssize_t n;
    const char *text;
    if (PyUnicode_IS_COMPACT_ASCII(value)) {
        n = PyUnicode_GET_LENGTH(value);
        text = (const char *)(((PyASCIIObject *)value) + 1);
    } else {
        text = PyUnicode_AsUTF8AndSize(value, &n);
        if (text == NULL) return -1;
    }
    NEED(5 + n);
    if (n < 32) {
        put8(out, 0xa0 | (unsigned char)n);
    } else if (n < 0x100) {
        put8(out, 0xd9);
        put8(out, (unsigned char)n);
    } else if (n < 0x10000) {
        put8(out, 0xda);
        put_be(out, (unsigned long long)n, 2);
    } else {
        put8(out, 0xdb);
        put_be(out, (unsigned long long)n, 4);
    }
    memcpy(out->data + out->size, text, (size_t)n);
    out->size += n;
    return 0;
}

/* 0 packed, 1 not a value this packer takes (the caller packs the whole another way), -1 an error. */
static int pack_int(Buffer *out, PyObject *value) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    NEED(9);
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(value);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 1; /* past 64 bits: the packers refuse it, in their own words */
        }
        put8(out, 0xcf);
        put_be(out, u, 8);
        return 0;
    }
    if (overflow < 0) return 1;
    if (v < -32) {
        if (v < -32768) {
            if (v < -2147483648LL) { put8(out, 0xd3); put_be(out, (unsigned long long)v, 8); }
            else { put8(out, 0xd2); put_be(out, (unsigned long long)v, 4); }
        } else if (v < -128) {
            put8(out, 0xd1); put_be(out, (unsigned long long)v, 2);
        } else {
            put8(out, 0xd0); put_be(out, (unsigned long long)v, 1);
        }
    } else if (v < 128) {
        put8(out, (unsigned char)v);
    } else if (v < 0x100) {
        put8(out, 0xcc); put_be(out, (unsigned long long)v, 1);
    } else if (v < 0x10000) {
        put8(out, 0xcd); put_be(out, (unsigned long long)v, 2);
    } else if (v < 0x100000000LL) {
        put8(out, 0xce); put_be(out, (unsigned long long)v, 4);
    } else {
        put8(out, 0xcf); put_be(out, (unsigned long long)v, 8);
    }
    return 0;
}

static int pack_value(Packer *self, Buffer *out, PyObject *value, int top);

static int pack_container(Packer *self, Buffer *out, PyObject *value, int top) {
    if (!top) {
        Part *part = find(self, value);
        if (part != NULL) {
            NEED(part->length);
            const char *from = part->owner ? PyBytes_AS_STRING(part->owner) : out->data;
            memcpy(out->data + out->size, from + part->offset, (size_t)part->length);
            out->size += part->length;
            return 0;
        }
    }
    Py_ssize_t start = out->size;
    int done = 0;
    if (Py_EnterRecursiveCall(" while packing a frame")) return -1;
    if (Py_IS_TYPE(value, &PyDict_Type)) {
        if (pack_header(out, PyDict_GET_SIZE(value), 0x80, 0xde, 0xdf) < 0) {
            done = -1;
        } else {
            Py_ssize_t pos = 0;
            PyObject *key, *item;
            while (done == 0 && PyDict_Next(value, &pos, &key, &item)) {
                done = Py_IS_TYPE(key, &PyUnicode_Type) ? pack_str(out, key) : 1; /* other keys: as the packers do */
                if (done == 0) done = pack_value(self, out, item, 0);
            }
        }
    } else {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(value);
        if (pack_header(out, n, 0x90, 0xdc, 0xdd) < 0) {
            done = -1;
        } else {
            for (Py_ssize_t i = 0; i < n && done == 0; i++)
                done = pack_value(self, out, PySequence_Fast_ITEMS(value)[i], 0);
        }
    }
    Py_LeaveRecursiveCall();
    if (done == 0 && !top && out->size - start >= SMALL) done = remember(self, value, start, out->size - start);
    return done;
}

static int pack_value(Packer *self, Buffer *out, PyObject *value, int top) {
    PyTypeObject *type = Py_TYPE(value);
    if (type == &PyUnicode_Type) return pack_str(out, value);
    if (type == &PyDict_Type || type == &PyList_Type || type == &PyTuple_Type)
        return pack_container(self, out, value, top);
    if (type == &PyLong_Type) return pack_int(out, value);
    if (value == Py_None || value == Py_True || value == Py_False) {
        NEED(1);
        put8(out, value == Py_None ? 0xc0 : value == Py_True ? 0xc3 : 0xc2);
        return 0;
    }
    if (type == &PyFloat_Type) {
        double d = PyFloat_AS_DOUBLE(value);
        unsigned long long bits;
        memcpy(&bits, &d, sizeof bits);
        NEED(9);
        put8(out, 0xcb);
        put_be(out, bits, 8);
        return 0;
    }
    if (type == &PyBytes_Type) {
        Py_ssize_t n = PyBytes_GET_SIZE(value);
        NEED(5 + n);
        if (n < 0x100) { put8(out, 0xc4); put8(out, (unsigned char)n); }
        else if (n < 0x10000) { put8(out, 0xc5); put_be(out, (unsigned long long)n, 2); }
        else { put8(out, 0xc6); put_be(out, (unsigned long long)n, 4); }
        memcpy(out->data + out->size, PyBytes_AS_STRING(value), (size_t)n);
        out->size += n;
        return 0;
    }
    return 1;
}

/* ---- the type ---- */

static PyObject *Packer_pack(Packer *self, PyObject *value) {
    Buffer out;
    out.data = out.local;
    out.size = 0;
    out.room = sizeof out.local;
    Py_ssize_t before = self->count;
    int done = pack_value(self, &out, value, 1);
    PyObject *result = NULL;
    if (done == 0) {
        result = PyBytes_FromStringAndSize(out.data, out.size);
        if (result != NULL) {
            for (Py_ssize_t i = before; i < self->count; i++) self->parts[i].owner = Py_NewRef(result);
        }
    }
    if (result == NULL) forget(self, before);
    if (out.data != out.local) PyMem_Free(out.data);
    if (done == 1) result = self->fallback ? PyObject_CallOneArg(self->fallback, value) : Py_NewRef(Py_None);
    return result;
}

static PyObject *Packer_close(Packer *self, PyObject *Py_UNUSED(ignored)) {
    forget(self, 0);
    Py_RETURN_NONE;
}

static PyObject *Packer_parts(Packer *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromSsize_t(self->count);
}

static int Packer_init(Packer *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"fallback", NULL};
    PyObject *fallback = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Packer", names, &fallback)) return -1;
    if (fallback != Py_None && !PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "Packer(fallback): fallback must be callable or None");
        return -1;
    }
    Py_XSETREF(self->fallback, fallback == Py_None ? NULL : Py_NewRef(fallback));
    return 0;
}

static void Packer_dealloc(Packer *self) {
    Py_CLEAR(self->fallback);
    forget(self, 0);
    PyMem_Free(self->parts);
    PyMem_Free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Packer_methods[] = {
    {"pack", (PyCFunction)Packer_pack, METH_O,
     "pack(value): the value packed as msgpack; one holding what this packer does not take is packed by the "
     "fallback (nothing of it remembered), or None without one."},
    {"close", (PyCFunction)Packer_close, METH_NOARGS, "close(): forget every part remembered (and let go of it)."},
    {"parts", (PyCFunction)Packer_parts, METH_NOARGS, "parts(): how many parts are remembered."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PackerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "protocol._cpack.Packer",
    .tp_doc = "Packer(fallback=None): packs the frames of one broadcast, each part they share packed once.",
    .tp_basicsize = sizeof(Packer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Packer_init,
    .tp_dealloc = (destructor)Packer_dealloc,
    .tp_methods = Packer_methods,
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "protocol._cpack",
    "Packing a broadcast's frames as msgpack, in C, their shared parts once (built with the compiled engine).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cpack(void) {
    if (PyType_Ready(&PackerType) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) return NULL;
    if (PyModule_AddObjectRef(module, "Packer", (PyObject *)&PackerType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
