"""A move's notation as words of a sentence: "the bot would <phrase>", "<past>; <gerund> was worth more".

Every game writes its moves in its own notation: a card game's "play 10S", "discard AH 7C", "go",
"count crib"; a tile game's bare "5-3 on 5-0", "draw", "pass", "knock". The notation's first word is a
verb or it is not (a bare tile is played); these helpers put it in the form a sentence needs, so that no
sentence says "play play 10S" or "played discard AH 7C"."""

from __future__ import annotations

__all__ = ["move_phrase"]

# the notation's first word -> (the words to say, past tense, gerund); a word not listed is a piece played
_VERBS: dict[str, tuple[str, str, str]] = {
    "play": ("play", "played", "playing"),
    "discard": ("discard", "discarded", "discarding"),
    "go": ("say go", "said go", "saying go"),
    "count": ("count", "counted", "counting"),
    "pass": ("pass", "passed", "passing"),
    "draw": ("draw", "drew", "drawing"),
    "knock": ("knock", "knocked", "knocking"),
    "muggins": ("call muggins", "called muggins", "calling muggins"),
    "claim": ("claim", "claimed", "claiming"),
}
_FORMS = ("base", "past", "gerund")
_COUNTED = {"hand": "the hand", "crib": "the crib"}


def move_phrase(text: str, form: str = "base") -> str:
    """``text``, a move in its game's notation, as a verb phrase: ``form`` "base" ("play 10S",
    "say go", "count the crib", "play 5-3 on 5-0"), "past" ("played 10S", "discarded AH 7C", "drew")
    or "gerund" ("playing 10S")."""
    if form not in _FORMS:
        raise ValueError(f"form is one of {', '.join(_FORMS)}; got {form!r}")
    words = text.split()
    if not words:
        return text
    k = _FORMS.index(form)
    verb = _VERBS.get(words[0].lower())
    if verb is None:  # a piece (and where it goes): it is played
        return f"{_VERBS['play'][k]} {text}"
    rest = words[1:]
    if words[0].lower() == "count" and len(rest) == 1:
        rest = [_COUNTED.get(rest[0].lower(), rest[0])]
    return " ".join([verb[k], *rest])
