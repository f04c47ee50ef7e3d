# The state a native card engine serves (its ``bind_owner``): held through a weak reference, so the engine and
# its state make no reference cycle and a state dropped is freed at once; called back by method name. Inline
# Cython only (cimported by the .pyx engines).


cdef inline object owner_of(object ref):
    """The state the weak reference ``ref`` (or None) refers to, or ReferenceError when it is gone."""
    owner = None if ref is None else ref()
    if owner is None:
        raise ReferenceError("the state this native game belonged to is gone")
    return owner


cdef inline int apply_slowly(object slow, object ref, object seat, object action) except -1:
    """Apply ``action`` (or refuse it) through ``slow(seat, action)`` (``bind_actions``), or without one through
    the owner's ``_apply``."""
    if slow is None:
        owner_of(ref)._apply(seat, action)
    else:
        slow(seat, action)
    return 0


cdef inline list window_actions(object window, object ref, int seat):
    """The Actions an open muggins window adds to ``seat``'s: ``window(seat)`` (``bind_actions``), or without
    one the owner's ``_window_actions``."""
    return owner_of(ref)._window_actions(seat) if window is None else window(seat)
