"""A lemma's WordNet neighbours for the label linker (`agents.reading.candidates.labels.Related`), from NLTK's reader.

Synonyms and derivational forms, converses (antonyms that are not co-hyponyms), hypernyms two levels
up, a verb's agent nouns (derived, or defined by it), and an adjective's pertainyms; only a lemma's most
frequent senses count.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from agents.reading.candidates.labels import AGENT_SUFFIXES, LIGHT, SENSES, LabelLinker, Related


def _converses(synset: Any) -> set[str]:
    """A synset's antonyms that are not its co-hyponyms: "parent" / "child", not "father" / "mother" (both parents)."""
    hypernyms = set(synset.hypernyms())
    return {
        ant.name().lower().replace("_", " ")
        for lem in synset.lemmas()
        for ant in lem.antonyms()
        if not hypernyms & set(ant.synset().hypernyms())
    }


SPECIFIC_DEPTH = 5
"""Least depth in WordNet's noun hierarchy of a hypernym that still names a kind of doer ("performer", not "person")."""


def _kin(wordnet: Any, synset: Any) -> set[str]:
    """An agent noun's synonyms and its specific hypernyms, two levels up (`SPECIFIC_DEPTH`).

    A word counts only where the synset is its most frequent noun sense: "founder" is a synonym of "father"
    in a sense that "father" seldom has, so "found" gives no "father" (nor "musician" a "player").
    """
    ups = list(synset.hypernyms())
    ups += [g for h in ups for g in h.hypernyms()]
    kinds = [synset, *(h for h in ups if h.min_depth() >= SPECIFIC_DEPTH)]
    return {n for kind in kinds for n in kind.lemma_names() if wordnet.synsets(n, pos="n")[:1] == [kind]}


PERSON_FILE = "18"
"""WordNet's lexicographer file of person nouns (`noun.person`), as `data.noun` numbers it."""
DEFINED_AGENT = re.compile(
    r"^(?:(?:a|an|the|one|someone|somebody)\s+)?(?:[a-z-]+\s+){0,2}?(?:who|that)\s+(?:(?:has|have|had)\s+)?"
    r"([a-z]+)(?:\s+([a-z]+))?"
)
"""A person noun's gloss that defines it by what it does: "a woman who has given birth to a child"."""
NOT_DOING = frozenset({"be", "have", "do", "is", "was", "are", "were"})
"""Verbs after "who" that say no deed ("a person who is ...", "who was born": a patient, not a doer)."""


NAME_SENSES = 2
"""A name's most frequent WordNet senses that a description may say ("Paris" the city, not the prince)."""
MIN_AGENT_STEM = 4
"""Shortest verb given agent nouns by suffix ("act" -> "actor" is WordNet's own derivation)."""


class WordNetRelated:
    """`Related` lemmas from NLTK's WordNet reader (nouns and verbs; cached per lemma)."""

    def __init__(self, wordnet: Any) -> None:
        self.wn = wordnet

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one instance per service, lives as long as it
    def describes(self, name: str, noun: str) -> bool:
        """Whether a name is one of what a noun says: an instance or a kind of it ("Kenya", "country").

        The name's two most frequent noun senses (its last word's, for a person's full name WordNet does
        not list: "Fred Beethoven" -> "Beethoven") and the noun's `SENSES` most frequent ones count, through
        every hypernym and instance hypernym above the name.
        """
        senses = self.wn.synsets(name.replace(" ", "_"), pos="n")[:NAME_SENSES]
        if not senses and " " in name:
            senses = self.wn.synsets(name.rsplit(" ", 1)[-1], pos="n")[:NAME_SENSES]
        kinds = set(self.wn.synsets(noun, pos="n")[:SENSES])
        if not senses or not kinds:
            return False
        up = {u for s in senses for u in s.closure(lambda x: x.hypernyms() + x.instance_hypernyms())}
        return bool(kinds & (up | {i for s in senses for i in s.instance_hypernyms()}))

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one instance per service, lives as long as it
    def pertainyms(self, adjective: str) -> tuple[str, ...]:
        """The nouns an adjective pertains to, from its three most frequent senses ("Asian" -> ("Asia",))."""
        found: dict[str, None] = {}
        for synset in [*self.wn.synsets(adjective, pos="a")[:SENSES], *self.wn.synsets(adjective, pos="s")[:SENSES]]:
            for lem in synset.lemmas():
                found.update(dict.fromkeys(p.name().replace("_", " ") for p in lem.pertainyms()))
        return tuple(found)

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one instance per service, lives as long as it
    def __call__(self, lemma: str) -> Related:
        """The lemma's synonyms and derivational forms, converses and hypernyms (two levels).

        A converse of a hypernym is one of the lemma too ("father" is a "parent", whose converse is "child").
        The most frequent sense's names and hypernyms, with the head nouns of their compounds, are its
        `primary` neighbours ("brother": "male sibling", "sibling"; not the sense "fellow member").
        """
        same: set[str] = set()
        converse: set[str] = set()
        broader: set[str] = set()
        primary: set[str] = set()
        if lemma in LIGHT:
            return Related()
        for synset in self.wn.synsets(lemma.replace(" ", "_"))[:SENSES]:
            if synset.pos() not in ("n", "v"):
                continue
            hypernyms = set(synset.hypernyms())
            ups = hypernyms | {g for h in hypernyms for g in h.hypernyms()}
            if not primary:  # the most frequent sense: its names, its hypernyms' and their head nouns
                names = {n.lower().replace("_", " ") for x in (synset, *ups) for n in x.lemma_names()}
                primary = names | {n.rsplit(" ", 1)[-1] for n in names if " " in n}  # "male sibling": "sibling"
            for up in ups:
                broader |= {n.lower().replace("_", " ") for n in up.lemma_names()}
                converse |= _converses(up)  # "father" -> "parent" -> "child"
            for lem in synset.lemmas():
                same.add(lem.name().lower().replace("_", " "))
                if lem.name().lower() == lemma:  # derivations of the word itself, not of its synonyms
                    same |= {d.name().lower().replace("_", " ") for d in lem.derivationally_related_forms()}
            converse |= _converses(synset)
        same.discard(lemma)
        agents = self.agent_nouns(lemma)
        primary.discard(lemma)
        return Related(
            frozenset(same), frozenset(converse - same), frozenset(broader - {lemma}), agents, frozenset(primary)
        )

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one instance per service, lives as long as it
    def means(self, word: str, value: str) -> bool | None:
        """Whether a word says a value (True), its opposite (False), or neither (None), by their senses.

        True: the value is a noun the word pertains to ("Irish": "Ireland"), a shared sense, or a
        hypernym of the word, two levels up ("woman" is a "female"); False: an antonym of the word or
        of such a hypernym is a sense of the value ("male" and "female"; "man" is a "male"). Only the
        words' most frequent senses count.
        """
        if word == value or value in (p.lower() for p in self.pertainyms(word)):
            return True  # "Irish" pertains to "Ireland"
        said = set(self.wn.synsets(value.replace(" ", "_"))[:SENSES])
        if not said:
            return None
        own = self.wn.synsets(word.replace(" ", "_"))[:SENSES]
        ups = set(own) | {h for s in own for h in s.hypernyms()}
        ups |= {g for h in ups for g in h.hypernyms()}
        if ups & said:
            return True
        opposite = {a.synset() for s in ups for lem in s.lemmas() for a in lem.antonyms()}
        return False if opposite & said else None

    def agent_nouns(self, verb: str) -> frozenset[str]:
        """The verb's agent nouns: derived person nouns with an agent suffix ("publish" -> "publisher").

        Every verb sense counts (derivation is morphology, not a sense); a noun said like the verb
        ("coach") or a patient noun ("trainee") is none. An agent noun's synonyms are agent nouns too
        ("write" -> "writer", "author"), and so are its specific hypernyms, two levels up ("sing" ->
        "singer" -> "musician", "performer"; not "person", which names anyone).
        """
        found: set[str] = set()
        for synset in self.wn.synsets(verb.replace(" ", "_"), pos="v"):
            for lem in synset.lemmas():
                if lem.name().lower() != verb:
                    continue
                for d in lem.derivationally_related_forms():
                    noun = d.name().lower()
                    if d.synset().lexname() == "noun.person" and noun != verb and noun.endswith(AGENT_SUFFIXES):
                        found |= {noun} | _kin(self.wn, d.synset())
        found |= self.defined_agents.get(verb, frozenset())
        found |= self._suffixed_agents(verb)
        return frozenset(n.lower().replace("_", " ") for n in found)

    def _suffixed_agents(self, verb: str) -> set[str]:
        """Person nouns the verb makes with an agent suffix where WordNet links no derivation ("curate": "curator").

        A candidate counts only when WordNet holds it as a person noun.
        """
        if " " in verb or len(verb) < MIN_AGENT_STEM:
            return set()
        stem = verb[:-1] if verb.endswith("e") else verb
        candidates = {f"{stem}{suffix}" for suffix in ("er", "or", "ist")} | {f"{verb}r"}
        return {
            c
            for c in candidates
            if any(x.lexname() == "noun.person" for x in self.wn.synsets(c, pos="n")) and c.endswith(AGENT_SUFFIXES)
        }

    @functools.cached_property
    def defined_agents(self) -> Mapping[str, frozenset[str]]:
        """Person nouns by the verb their gloss defines them with ("give birth": "mother"), read once.

        A noun counts when the gloss's head says who does it ("a woman who has given birth to a child")
        and the synset is the noun's most frequent sense; a verb with the next word that WordNet holds
        as one verb ("give birth") is keyed so. A gloss of being or undergoing ("who was born") says no
        deed. Read from `data.noun` line by line, as the reader would parse every noun synset (seconds).
        """
        found: dict[str, set[str]] = {}
        with self.wn.open("data.noun") as lines:
            for line in lines:
                head, _, gloss = line.partition("| ")
                fields = head.split()
                if line.startswith(" ") or len(fields) < 5 or fields[1] != PERSON_FILE:
                    continue
                said = DEFINED_AGENT.match(gloss)
                verb = self.wn.morphy(said.group(1), "v") if said is not None else None
                if said is None or verb is None or said.group(1) in NOT_DOING or verb in NOT_DOING:
                    continue
                if said.group(2) and self.wn.synsets(f"{verb}_{said.group(2)}", pos="v"):
                    verb = f"{verb} {said.group(2)}"  # "has given birth to": "give birth"
                offset = int(fields[0])
                words = [fields[4 + 2 * i] for i in range(int(fields[3], 16))]
                for word in words:
                    senses = self.wn.synsets(word, pos="n")
                    if senses and senses[0].offset() == offset and not senses[0].instance_hypernyms():
                        found.setdefault(verb, set()).add(word.lower())
        return {verb: frozenset(nouns) for verb, nouns in found.items()}


def default_linker() -> LabelLinker:
    """The label linker on the bundled embeddings and WordNet (`agents.reading.candidates.labels`)."""
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet
    from drowzee_core.llm.embeddings import embedder

    related = WordNetRelated(load_wordnet(home()))
    return LabelLinker(
        embedder().encode, related, pertains=related.pertainyms, means=related.means, describes=related.describes
    )


__all__ = ["WordNetRelated", "default_linker"]
