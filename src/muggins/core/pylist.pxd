# The lists a native engine answers with (legal ids, legal Actions), made without allocating when they can be:
# the engine keeps the last list it gave, and when nobody else holds it any more (the caller dropped it, as a
# playing loop does) refills that same list for the next answer. A list a caller still holds is never
# touched: the answer is then a new list, kept in its place. Inline C only (cimported by the .pyx engines).
from cpython.ref cimport PyObject


cdef extern from *:
    """
    /* A list of the n objects items[0..n) (borrowed references; the list takes its own): `kept` itself when
       it is a list nobody else refers to (its one reference is the engine's) with room for them, else a new
       list with room for at least `room`. A new reference; NULL with an exception set when out of memory. */
    static PyObject *muggins_refill(PyObject *kept, PyObject *const *items, Py_ssize_t n, Py_ssize_t room) {
        PyListObject *list = (PyListObject *)kept;
        Py_ssize_t i, old;
        if (kept != NULL && PyList_CheckExact(kept) && Py_REFCNT(kept) == 1 && n <= list->allocated) {
            old = Py_SIZE(list);
            Py_SET_SIZE(list, n);  /* (set first: nothing a reference dropped below could run sees stale items) */
            for (i = 0; i < n; i++) {
                PyObject *was = i < old ? list->ob_item[i] : NULL;
                Py_INCREF(items[i]);
                list->ob_item[i] = items[i];
                Py_XDECREF(was);
            }
            for (i = n; i < old; i++) {
                PyObject *was = list->ob_item[i];
                list->ob_item[i] = NULL;
                Py_XDECREF(was);
            }
            Py_INCREF(kept);
            return kept;
        }
        list = (PyListObject *)PyList_New(n > room ? n : room);
        if (list == NULL)
            return NULL;
        Py_SET_SIZE(list, n);  /* the slots past n stay NULL: room for a later refill */
        for (i = 0; i < n; i++) {
            Py_INCREF(items[i]);
            list->ob_item[i] = items[i];
        }
        return (PyObject *)list;
    }
    """
    list muggins_refill(PyObject* kept, PyObject** items, Py_ssize_t n, Py_ssize_t room)
