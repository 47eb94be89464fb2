"""What each built-in function and procedure of the language takes and does, in words: the
signature and one-line documentation an editor shows on hover (docs/language.md section 9 holds
the same table; tests/test_lsp.py checks that the two and `runtime.BUILTIN_FUNCTIONS` agree)."""

from __future__ import annotations

# name -> (parameters as written in a call, what it gives)
BUILTIN_FUNCTION_DOCS: dict[str, tuple[str, str]] = {
    "count": ("(L)", "the number of items"),
    "first": ("(L)", "the first item, `none` if empty"),
    "last": ("(L)", "the last item, `none` if empty"),
    "nth": ("(L, i)", "the i-th item counting from 1, `none` out of range (same as `L[i]`)"),
    "max": ("(a, b, ...)", "the largest of 1 to 99 values; for the largest item of a list use `max_of`"),
    "min": ("(a, b, ...)", "the smallest of 1 to 99 values; for a list use `min_of`"),
    "max_of": ("(L)", "the largest item, `0` if empty"),
    "min_of": ("(L)", "the smallest item, `0` if empty"),
    "sum_of": ("(L)", "the sum of the items"),
    "abs": ("(n)", "the absolute value"),
    "any": ("(L)", "true when the list is not empty"),
    "is_empty": ("(L)", "true when the list is empty"),
    "reverse": ("(L)", "the items in reverse order"),
    "take": ("(L, n)", "the first n items"),
    "drop": ("(L, n)", "all but the first n items"),
    "distinct": ("(L)", "the items without repeats, first occurrence kept; repeats are the *same* object (the same "
                        "card or player), so equal texts or numbers made separately may both stay"),
    "combinations": ("(L, k)", "every list of k items of L, in order"),
    "permutations": ("(L)", "every order of the items"),
    "product": ("(A, B)", "every pair `[a, b]`"),
    "others": ("(p)", "the other players, in seat order"),
    "next_player": ("(p)", "the player in the next seat, after the last seat the first"),
    "random": ("(L)", "an item chosen with the game's seeded generator, `none` if empty"),
    "shuffled": ("(L)", "a copy of the list in a random order (the game's seeded generator)"),
    "card_names": ("()", "the names of the ruleset's cards that are not tokens, in the order they are defined "
                         "(card files of a folder in name order)"),
    "attachments": ("(x)", "the cards attached to a card or player, in any zone"),
    "position": ("(c)", "a card's position in its zone, from 1; `none` if it is in no zone"),
    "has": ("(c, k)", "whether card c has keyword k (printed or granted); false for a non-card"),
    "text": ("(x)", "a value's label, as options show it"),
    "labelled": ('(v, "label")', 'v, shown as "label" when offered in a `choose`'),
    "abilities": ("(cards)", "the activated abilities of these cards that may be used now"),
    "ability_cost": ("(a)", "an ability's `pay` cost, 0 without one"),
    "ability_card": ("(a)", "the card an ability belongs to"),
    "range": ("(a, b)", "the whole numbers from a up to b, b left out (at most 100,000)"),
    "flatten": ("(L)", "the items of the lists in L joined, one level deep (an item that is not a list stays)"),
    "set": ("(L)", "the items of L without repeats, in the set order (see [Sets](#sets))"),
    "union": ("(A, B)", "the set of the items of A and of B"),
    "intersection": ("(A, B)", "the set of the items of A that are in B"),
    "difference": ("(A, B)", "the set of the items of A that are not in B"),
}

# the built-in procedures (statements): name -> (parameters, what it does)
BUILTIN_PROCEDURE_DOCS: dict[str, tuple[str, str]] = {
    "run": ('(card, "part")', "runs the statements of the card's part of that name"),
    "reveal": ("(cards)", "shows a card (or a list of cards) to every player until it changes zone"),
    "aim": ("(ability)", "runs an activated ability's `target { ... }` block (its choices are made then)"),
    "use": ("(ability)", "runs an activated ability's effect"),
}


def builtin_doc(name: str) -> tuple[str, str, str] | None:
    """('function' or 'procedure', the signature, the documentation) of a built-in, or None."""
    if name in BUILTIN_FUNCTION_DOCS:
        params, doc = BUILTIN_FUNCTION_DOCS[name]
        return "function", name + params, doc
    if name in BUILTIN_PROCEDURE_DOCS:
        params, doc = BUILTIN_PROCEDURE_DOCS[name]
        return "procedure", name + params, doc
    return None
