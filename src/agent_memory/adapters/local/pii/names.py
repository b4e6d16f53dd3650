"""Person names: runs of capitalised words judged by name lists, titles and the words around them.

No statistical model: a run is a name when it holds a given name that is not an ordinary English
word ("Maria", "Kenji"), pairs a surname with another name word ("Grace Hopper"), is two words
in no English list ("Agnieszka Wróblewska"), or sits where only a person fits ("Dr. X", "Dear X",
"my name is X", "signed by X", "X said", "X, CFO", "Amy: ..." at a line's start). A lone surname
or unknown word counts mid-sentence, or opening one before a lowercase word ("Becker signed"),
unless a determiner, a title phrase or "is a" makes it a thing; words listed beside a name
("Okafor, Lindqvist and Brennan") follow it. Runs next to company suffixes ("Acme Corp", "Smith &
Wesson"), place prefixes ("San Jose"), places and countries from GeoNames ("São Paulo"),
cities named like people where a journey's words or a country say so ("a trip to Barcelona",
"Eugene, Oregon"), runs before a feature or venue word ("Ross Lake", "Dipsea Trail"), brands
("Microsoft Azure") and companies named like people ("Morgan Stanley") are skipped. A surname
that is also an English word is weak: it needs a cue or a name beside it.
Names in lowercase are found as a given name and a surname ("rachel greenberg"), and in a text
written all in lowercase every word that is a name or no English word is read as capitalised.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from agent_memory.adapters.local.pii import arabic_names, cjk_names, foreign_words
from agent_memory.adapters.local.pii import lexicon as lx
from agent_memory.adapters.local.pii.tokens import Token, tokenise
from agent_memory.core.ports import PiiEntity
from agent_memory.core.privacy import languages

_RUN_GAP = re.compile(r"[ \t\u00a0]{1,3}")
_INITIAL_GAP = re.compile(r"\.[ \t\u00a0]{0,3}|[ \t\u00a0]{1,3}")
_TITLE_GAP = re.compile(r"\.?[ \t\u00a0]{1,3}")
_CUE_GAP = re.compile(r",?[ \t\u00a0]{1,3}")
_LABEL_GAP = re.compile(r"[ \t\u00a0]*:[ \t\u00a0]*")
_SIGNOFF_GAP = re.compile(r",?[ \t\u00a0]*\r?\n[ \t\u00a0]*")
_ORG_GAP = re.compile(r",?[ \t\u00a0]{1,3}")
_AMPERSAND_GAP = re.compile(r"[ \t\u00a0]*(?:&|\+)[ \t\u00a0]*")
_APPOSITIVE_GAP = re.compile(r"[ \t\u00a0]*[,(][ \t\u00a0]*")
_SUFFIX_GAP = re.compile(r",?[ \t\u00a0]{1,2}")
_LOWER_INITIAL_GAP = re.compile(r"\.?[ \t\u00a0]{1,2}")
_COMMA_GAP = re.compile(r",[ \t\u00a0]{1,2}")
_LIST_GAP = re.compile(
    r"(?:,[ \t\u00a0]{1,2}(?:and[ \t\u00a0]{1,2})?|[ \t\u00a0]{1,2}and[ \t\u00a0]{1,2})"
)
_SIGNOFFS = lx.words("regards sincerely cheers thanks best yours warmly respectfully")
_JOB_MODIFIERS = lx.words(
    "senior chief general vice executive principal managing deputy junior head"
)
_MAX_NAME_WORDS = 4
_SENTENCE_ENDS = frozenset(".!?:;\n\r\"“”'‘’([{*-•")


_CYRILLIC = re.compile("[\u0400-\u04ff]")
_NOUNS_CAPITALISED = frozenset({"de"})
# A French or Italian elided article or pronoun before a lowercase word.
_ELIDED = re.compile(r"(?:[CcDdJjLlMmNnSsTt]|[Qq]u|[Dd]ell|[Nn]ell|[Aa]ll|[Ss]ull)['’][a-zà-ÿ]")
# Folded (й -> и, ё -> е) Russian name endings with their case endings.
_PATRONYMIC = re.compile(r"(?:ович|евич|ьич|ич)(?:а|у|ем|е)?$|(?:овн|евн|ичн)(?:а|ы|е|у|ои)$")
_SURNAME = re.compile(r"(?:ов|ев|ск|цк)(?:а|у|ым|ои|ом|е|ых|ыми|ы|ии|ая|ого|ому|им|ую|ие|их)?$")
_WEAK_SURNAME = re.compile(r"(?:ин|ын)(?:а|у|ым|ои|ом|е|ых|ы)?$")
_CASE_ENDINGS = ("ами", "ыми", "ом", "ем", "ои", "еи", "ью", "а", "я", "у", "ю", "е", "и", "ы")
_NOMINATIVE_ENDINGS = ("", "а", "я", "и", "ь", "ия")


def _cyrillic_name(key: str, lex: lx.Lexicon) -> tuple[int, int]:
    """(first, last) of a Cyrillic word: a listed given name in any case ("Ивану"), a
    patronymic, or a surname by its ending ("Петров", "Петровой", "Достоевский").
    """
    if len(key) < 3:
        return 0, 0
    stems = [key] + [key[: -len(e)] for e in _CASE_ENDINGS if key.endswith(e)]
    if any(stem + end in lex.first_names for stem in stems for end in _NOMINATIVE_ENDINGS):
        return 2, 0
    if _PATRONYMIC.search(key) or (_SURNAME.search(key) and len(key) >= 5):
        return 0, 2
    if _WEAK_SURNAME.search(key) and len(key) >= 5:
        return 0, 1
    return 0, 0


_CASE_SUFFIXES = ("a", "u", "em", "ie", "owi", "y", "om", "ach", "ami", "e", "s", "n", "en")


def _inflected_tech_word(key: str) -> bool:
    return any(key.endswith(end) and key[: -len(end)] in lx.TECH_WORDS for end in _CASE_SUFFIXES)


@dataclass(slots=True)
class _Word:
    """What the lexicon says about one folded word."""

    first: int  # 2: a given name, 1: a given name that is also a common word or place
    last: int  # 2: a surname, 1: a surname that is also a common word
    novel: bool  # in no list at all: likely a proper noun
    breaker: bool  # an ordinary word that cannot be part of a name
    title: bool
    particle: bool
    place: bool = False  # a city, country or state name
    ordinary: bool = False  # a word of the text's (other) language: a name only mid-sentence


class NameRecogniser:
    """Finds person names; stateless after construction, so safe to share between threads."""

    def __init__(self, lexicon: lx.Lexicon | None = None) -> None:
        self._lex = lexicon or lx.load()

    def find(self, text: str) -> Iterator[PiiEntity]:
        """Yield NAME entities: Latin and Cyrillic runs, then CJK and Arabic-script names."""
        return itertools.chain(
            _Scan(text, self._lex).run(), cjk_names.find(text), arabic_names.find(text)
        )


class _Scan:
    """One pass over one text."""

    def __init__(self, text: str, lex: lx.Lexicon) -> None:
        self.text = text
        self.lex = lex
        self.cache: dict[str, _Word] = {}
        self.tokens = list(tokenise(text))
        # In a text in another language, its ordinary words are no names ("Actualmente").
        langs = languages.guess(t.key for t in self.tokens if t.shape == "lower")
        self.function_words = frozenset().union(*(languages.FUNCTION_WORDS[la] for la in langs))
        self.langs = langs
        self.foreign = [foreign_words.ordinary_words(la, lex.is_frequent_name) for la in langs]
        self.nouns = [
            w for la, w in zip(langs, self.foreign, strict=True) if la in _NOUNS_CAPITALISED
        ]
        if text.islower() and len(self.tokens) >= 3:
            # A text written all in lowercase ("my name is jürgen müller"): its names have lost
            # their capitals, so a word that is a name or no English word is read as capitalised.
            self.tokens = [self._recased(t) for t in self.tokens]

    def _recased(self, tok: Token) -> Token:
        if tok.shape != "lower" or tok.key in lx.PARTICLES or len(tok.key) < 2:
            return tok
        word = self.word(tok.key)
        english = self.lex.is_english(tok.key) and word.first != 2 and word.last != 2
        if english or word.breaker:
            return tok
        return replace(tok, shape="cap")

    # -- word knowledge ---------------------------------------------------------------------

    def word(self, key: str) -> _Word:
        known = self.cache.get(key)
        if known is None:
            known = self.cache[key] = self._classify(key)
        return known

    def _classify(self, key: str) -> _Word:
        lex = self.lex
        parts = [p for p in key.split("-") if p]
        if not parts:
            return _Word(0, 0, False, True, False, False)
        place = key.replace("-", " ") in lex.places
        head = parts[0]
        in_first = head in lex.first_names and head not in lx.MONTHS_AND_DAYS
        in_last = key.replace("-", "") in lex.last_names or any(p in lex.last_names for p in parts)
        english = all(lex.is_english(p) for p in parts)
        common = lex.is_common(head)
        if not in_first:
            first = 0
        elif common or head in lx.AMBIGUOUS_GIVEN_NAMES or head in lx.PLACES_AND_BRANDS:
            first = 1
        else:
            first = 2
        last = 0
        for part in parts if in_last else ():
            if part in lex.last_names or len(parts) == 1:
                common_part = lex.is_english(part) or part in lx.PLACES_AND_BRANDS
                last = max(last, 1 if common_part else 2)
        if key in lex.countries:
            first, last = min(first, 1), min(last, 1)
        cyrillic_name = False
        if not in_first and not in_last and _CYRILLIC.search(key):
            first, last = _cyrillic_name(key, lex)
            cyrillic_name = 2 in (first, last)
        # A word of the text's language: a function word is never a name, nor a noun where
        # every noun is capitalised (German); another word only where a capital proves nothing,
        # at a sentence's start ("Actualmente dirige…", see _name_like).
        ordinary = (
            not cyrillic_name
            and not (in_first and lex.is_frequent_name(head))
            and any(all(p in words for p in parts) for words in self.foreign)
        )
        noun = ordinary and any(all(p in words for p in parts) for words in self.nouns)
        # "Pythona", "Pythonie", "Питона": a software word with another language's case ending.
        if self.langs and not (in_first or in_last) and _inflected_tech_word(key):
            english, first, last = True, 0, 0
        if (key in self.function_words and not cyrillic_name) or noun:
            english, first, last, ordinary = True, 0, 0, False
        title = key in lx.TITLES
        particle = key in lx.PARTICLES
        listed_vocabulary = (
            key in lx.INTERJECTIONS
            or key in lx.NATIONALITIES
            or key in lex.proper_words
            or any(stem in lex.proper_words for stem in lx.stems(key))
            or key in lx.DOMAIN_WORDS
            or key in lx.MONTHS_AND_DAYS
            or key in lx.ORG_SUFFIXES
            or key in lx.JOB_WORDS
            or key in lx.NAME_SUFFIXES
            or key in lx.BRANDS
            or key in lx.LABEL_CUES
            or key in lx.TECH_WORDS
        )
        breaker = not particle and (
            title or listed_vocabulary or (english and first == 0 and last == 0)
        )
        novel = not english and first == 0 and last == 0 and not particle and not place
        return _Word(first, last, novel, breaker, title, particle, place, ordinary)

    # -- runs and segments ------------------------------------------------------------------

    def run(self) -> Iterator[PiiEntity]:
        found = [e for segment in self._segments() for e in self._judge_all(segment)]
        found += self._name_lists()
        yield from found
        yield from self._coordinated(found)
        yield from self._upper_case_names()
        yield from self._lower_case_names()

    def _name_lists(self) -> list[PiiEntity]:
        """Lists of names ("Okafor, Lindqvist and Brennan"): three or more lone capitalised words
        listed together, each a listed name or no English word, two of them listed names.
        """
        tokens, found = self.tokens, []
        i = 0
        while i < len(tokens):
            if tokens[i].shape != "cap":
                i += 1
                continue
            items = [i]
            nxt = self._list_neighbour(i, 1)
            while nxt is not None:
                items.append(nxt)
                nxt = self._list_neighbour(nxt, 1)
            j = items[-1]
            if len(items) >= 3 and all(self._list_name(k, surnames=True) for k in items):
                words = [self.word(tokens[k].key) for k in items]
                strong = sum(w.first == 2 or w.last == 2 or w.novel for w in words)
                if strong >= 2 and sum(bool(w.first or w.last) for w in words) >= 2:
                    found += [PiiEntity("NAME", tokens[k].start, tokens[k].end, 0.5) for k in items]
            i = j + 1
        return found

    def _lower_case_names(self) -> Iterator[PiiEntity]:
        """Names written in lowercase: "rachel greenberg", "anneke t visser" (a given name
        that is no English word, an optional initial, then a surname or a word in no list), or
        one name word after "my name is".
        """
        tokens, lex = self.tokens, self.lex
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            listed = tok.key in lex.first_names or tok.key in lex.last_names
            if not listed or tok.shape != "lower" or i + 1 >= len(tokens):
                i += 1
                continue
            j = i + 1
            if (
                tokens[j].shape == "lower"
                and len(tokens[j].key) == 1
                and j + 1 < len(tokens)
                and _INITIAL_GAP.fullmatch(self._gap(i, j))
                and _LOWER_INITIAL_GAP.fullmatch(self._gap(j, j + 1))
            ):
                j += 1
            given = self._lower_given(tok.key)
            surname = tokens[j]
            if (
                given
                and surname.shape == "lower"
                and _RUN_GAP.fullmatch(self._gap(j - 1, j))
                and self._lower_surname(surname.key)
            ):
                yield PiiEntity("NAME", tok.start, surname.end, 0.5)
                i = j + 1
                continue
            if (given or self._lower_surname(tok.key)) and self._before(i) == "strong":
                yield PiiEntity("NAME", tok.start, tok.end, 0.5)
            i += 1

    def _in_text_language(self, key: str) -> bool:
        """A function word or an ordinary word of the text's (other) language."""
        return key in self.function_words or any(key in words for words in self.foreign)

    def _lower_given(self, key: str) -> bool:
        lex = self.lex
        return (
            not self._in_text_language(key)
            and key not in lx.CODE_WORDS
            and key in lex.first_names
            and not lex.is_english(key)
            and key not in lx.AMBIGUOUS_GIVEN_NAMES
            and key not in lx.PLACES_AND_BRANDS
            and len(key) >= 3
        )

    def _lower_surname(self, key: str) -> bool:
        lex = self.lex
        if lex.is_english(key) or key in lx.PARTICLES or key in lx.CODE_WORDS or len(key) < 3:
            return False
        if self._in_text_language(key):
            return False
        word = self.word(key)
        return (
            not word.breaker
            and not word.place
            and (word.last >= 1 or word.first >= 1 or word.novel)
        )

    def _coordinated(self, found: list[PiiEntity]) -> Iterator[PiiEntity]:
        """Single name words listed beside a name: "present: Okafor, Lindqvist and Brennan"."""
        if not found:
            return
        tokens = self.tokens
        starts = {t.start: i for i, t in enumerate(tokens)}
        ends = {t.end: i for i, t in enumerate(tokens)}
        named: set[int] = set()
        for e in found:
            if e.begin in starts:
                named.add(starts[e.begin])
            if e.end in ends:
                named.add(ends[e.end])
        queue = sorted(named)
        while queue:
            i = queue.pop()
            for j in (self._list_neighbour(i, -1), self._list_neighbour(i, 1)):
                if j is None or j in named or not self._list_name(j):
                    continue
                named.add(j)
                queue.append(j)
                yield PiiEntity("NAME", tokens[j].start, tokens[j].end, 0.5)

    def _list_neighbour(self, i: int, step: int) -> int | None:
        """The next item of a list "A, B and C" from item ``i`` in direction ``step``."""
        j = i + step
        if 0 <= j < len(self.tokens) and self.tokens[j].key == "and":
            j += step
        if not 0 <= j < len(self.tokens):
            return None
        left, right = min(i, j), max(i, j)
        gap = self.text[self.tokens[left].end : self.tokens[right].start]
        return j if _LIST_GAP.fullmatch(gap) else None

    def _list_name(self, j: int, *, surnames: bool = False) -> bool:
        """A lone capitalised word that may be a name in a list; with ``surnames``, an English
        word that is also a surname counts ("Bowman and White").
        """
        tok = self.tokens[j]
        if tok.shape != "cap":
            return False
        word = self.word(tok.key)
        listed = word.first or word.last
        if word.breaker and not (surnames and word.last and not word.title):
            return False
        if (word.place and not listed) or tok.key in self.lex.countries:
            return False
        if tok.key in lx.ORG_SUFFIXES or tok.key in lx.COMPANY_NAMES:
            return False
        # A lone word beside the list: not a longer run ("Okafor, Brennan Street").
        for k in (j - 1, j + 1):
            if (
                0 <= k < len(self.tokens)
                and self.tokens[k].shape in ("cap", "caps")
                and _RUN_GAP.fullmatch(self._gap(min(j, k), max(j, k)))
            ):
                return False
        return bool(word.first or word.last or word.novel)

    def _upper_case_names(self) -> Iterator[PiiEntity]:
        """Names in capitals ("JOHN SMITH" in a signature block): a given name, then one or two
        surnames, none of them a common word.
        """
        tokens = self.tokens
        i = 0
        while i < len(tokens):
            if tokens[i].shape != "caps" or not self._upper_name_word(i, given=True):
                i += 1
                continue
            j = i
            while j - i < 2 and self._upper_name_word(j + 1, given=False, after=j):
                j += 1
            if j > i:
                yield PiiEntity("NAME", tokens[i].start, tokens[j].end, 0.7)
            i = j + 1

    def _upper_name_word(self, i: int, *, given: bool, after: int | None = None) -> bool:
        if i >= len(self.tokens):
            return False
        tok = self.tokens[i]
        if tok.shape != "caps" or tok.key in self.lex.common_10:
            return False
        if after is not None and not _RUN_GAP.fullmatch(self._gap(after, i)):
            return False
        word = self.word(tok.key)
        return word.first == 2 if given else (word.last >= 1 and not word.breaker)

    def _segments(self) -> Iterator[list[int]]:
        tokens = self.tokens
        current: list[int] = []
        for i, tok in enumerate(tokens):
            if current and not self._continues(current[-1], i):
                yield from self._close(current)
                current = []
            if self._name_like(i):
                current.append(i)
            else:
                yield from self._close(current)
                current = []
            if tok.possessive:
                yield from self._close(current)
                current = []
        yield from self._close(current)

    def _close(self, segment: list[int]) -> Iterator[list[int]]:
        # A lowercase particle may neither end nor start a name ("Maria de", "ich bin Jürgen").
        while segment and self.tokens[segment[-1]].shape == "lower":
            segment.pop()
        while segment and self.tokens[segment[0]].shape == "lower":
            segment.pop(0)
        if segment:
            yield segment

    def _name_like(self, i: int) -> bool:
        tok = self.tokens[i]
        if tok.shape == "initial":
            return True
        if tok.shape == "lower":
            # Only a particle between capitalised words: "Vincent van Gogh".
            nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
            return (
                tok.key in lx.PARTICLES
                and i > 0
                and self.tokens[i - 1].shape in ("cap", "lower")
                and nxt is not None
                and nxt.shape in ("cap", "lower")
            )
        if tok.shape != "cap":
            return False
        word = self.word(tok.key)
        if word.ordinary and self._sentence_start(i) and not self._name_follows(i):
            return False
        if _ELIDED.match(self.text, tok.start, tok.end):
            return False  # "C'est", "L'argument", "dell'anno": an article and a word
        if not word.breaker:
            return True
        # "Anneke T Visser": after a given name and an initial, even a word is a surname.
        return (
            i >= 2
            and self.tokens[i - 1].shape == "initial"
            and self.tokens[i - 2].shape == "cap"
            and self.word(self.tokens[i - 2].key).first >= 1
            and not self.word(tok.key).title
        )

    def _name_follows(self, i: int) -> bool:
        """A capitalised name word right after token ``i``: "Giuseppe Verdi nacque"."""
        j = i + 1
        if j >= len(self.tokens) or self.tokens[j].shape != "cap":
            return False
        word = self.word(self.tokens[j].key)
        gap = self._gap(i, j)
        return not word.ordinary and not word.breaker and _RUN_GAP.fullmatch(gap) is not None

    def _continues(self, prev_index: int, i: int) -> bool:
        prev, tok = self.tokens[prev_index], self.tokens[i]
        if prev_index != i - 1 or prev.possessive:
            return False
        gap = self.text[prev.end : tok.start]
        if prev.shape == "initial":
            return _INITIAL_GAP.fullmatch(gap) is not None
        return _RUN_GAP.fullmatch(gap) is not None

    # -- judging ------------------------------------------------------------------------------

    def _gap(self, left: int, right: int) -> str:
        return self.text[self.tokens[left].end : self.tokens[right].start]

    def _judge_all(self, segment: list[int]) -> Iterator[PiiEntity]:
        """Judge a segment, first splitting a long one before each given name."""
        idx = segment
        if sum(self.tokens[i].shape == "cap" for i in idx) <= _MAX_NAME_WORDS:
            entity = self._judge(idx)
            if entity is not None:
                yield entity
            return
        piece: list[int] = []
        for i in idx:
            if piece and self.word(self.tokens[i].key).first == 2:
                yield from self._judge_all(piece)
                piece = []
            piece.append(i)
        if len(piece) < len(idx):
            yield from self._judge_all(piece)

    def _judge(self, segment_tokens: list[int]) -> PiiEntity | None:
        tokens = self.tokens
        idx = self._trim(segment_tokens)
        # "Mehmet Bey", "Ayşe Hanım": a Turkish title after the name, left outside it.
        titled_after = len(idx) > 1 and tokens[idx[-1]].key in lx.TITLES_AFTER
        if titled_after:
            idx = idx[:-1]
        if not idx:
            return None
        first_i, last_i = idx[0], idx[-1]
        core = [
            i for i in idx if tokens[i].shape == "cap" and not self.word(tokens[i].key).particle
        ]
        if not core or len(core) > _MAX_NAME_WORDS:
            return None
        score = 0.85 if titled_after else self._score(first_i, last_i, idx, core)
        if score is None:
            return None
        begin = self._surname_before(first_i, core[0])
        end = tokens[last_i].end
        if tokens[last_i].shape == "initial":
            end += self.text[end : end + 1] == "."  # the initial's full stop
        end = self._with_suffix(last_i, end)
        return PiiEntity("NAME", begin, end, score)

    def _trim(self, idx: list[int]) -> list[int]:
        """Drop leading words that cannot start a name: a label's letter ("Exhibit B."), a
        common word that is only a surname ("Call" in "Call Carlos"), or an English word opening
        a sentence before a given name.
        """
        tokens = self.tokens
        start = 0
        if tokens[idx[0]].shape == "initial" and idx[0] > 0:
            prev = tokens[idx[0] - 1]
            gap = self._gap(idx[0] - 1, idx[0])
            if prev.shape == "cap" and self.word(prev.key).breaker and _RUN_GAP.fullmatch(gap):
                while start < len(idx) and tokens[idx[start]].shape == "initial":
                    start += 1
        while start < len(idx) - 1:
            tok, nxt = tokens[idx[start]], tokens[idx[start + 1]]
            word = self.word(tok.key)
            surname_only_word = word.first == 0 and word.last == 1
            # "Call Okafor Chinedu": an English word opening the sentence, before a given name.
            # Ambiguous given names stay ("Frank Herbert"): a word too many beats a name cut.
            word_before_name = (
                word.first == 0
                and self._sentence_start(idx[start])
                and self.word(nxt.key).first == 2
                and self.lex.is_english(tok.key)
            )
            # "Toplantıya Ayşe Yılmaz katıldı": a word of another language opening the sentence,
            # before a given name and a surname.
            unknown_before_name = (
                word.novel
                and word.last == 0
                and self._sentence_start(idx[start])
                and self.word(nxt.key).first == 2
                and start + 2 < len(idx)
                and tokens[idx[start + 2]].shape == "cap"
            )
            # "Ayer García dijo": a word of the text's language opening the sentence.
            ordinary_opening = (
                word.ordinary and word.first == 0 and self._sentence_start(idx[start])
            )
            word_before_name = word_before_name or unknown_before_name or ordinary_opening
            if tok.shape != "cap" or not (surname_only_word or word_before_name):
                break
            start += 1
        return idx[start:]

    def _sentence_start(self, i: int) -> bool:
        before = self.text[: self.tokens[i].start].rstrip(" \t\u00a0")
        return not before or before[-1] in _SENTENCE_ENDS

    def _score(self, first_i: int, last_i: int, idx: list[int], core: list[int]) -> float | None:
        words = [self.word(self.tokens[i].key) for i in core]
        before = self._before(first_i)
        if before == "title" or (
            before == "word title" and any(w.first or w.last == 2 or w.novel for w in words)
        ):
            return 0.9
        if (
            self._is_org(first_i, last_i)
            or self._place_head(first_i)
            or self._known_non_person(core)
            or self._place_in_context(first_i, last_i, words)
            or self._place_feature(last_i, core)
        ):
            return None
        if before == "strong":
            return 0.85
        has_initial = any(self.tokens[i].shape == "initial" for i in idx)
        strong_first = any(w.first == 2 for w in words) and (
            len(core) > 1 or len(self.tokens[core[0]].key) >= 3
        )
        if strong_first:
            return 0.9 if len(core) > 1 else 0.75
        if len(core) > 1:
            return self._score_pair(words, core, before)
        single, key = words[0], self.tokens[core[0]].key
        after = self._after(last_i)
        if has_initial and (single.last == 2 or single.novel):
            return 0.75
        if (
            after == "speech"
            and key not in self.lex.common_10
            and (single.last or single.novel or single.first)
        ):
            return 0.7
        if after == "action" and single.last == 2:
            return 0.65
        if after == "job" and (single.last == 2 or single.novel):
            return 0.65
        if before in ("weak", "addressed") and single.last == 2:
            return 0.6
        listed_or_novel = (
            (single.first == 2 or single.last == 2 or single.novel)
            and key not in self.lex.common_10
            and ("-" not in key or self._all_parts_listed(key))
        )
        if (listed_or_novel or single.first) and self._speaker_label(first_i, last_i):
            return 0.6
        if single.first and self._vocative_end(first_i, last_i):
            return 0.55
        defined = self._defined(last_i)  # "Quorvex is a 2019 film", "Ruff is a linter"
        if (
            listed_or_novel
            and not single.place
            and after in ("subject", "vocative")
            and not (defined and single.first != 2)
        ):
            return 0.55
        # "Becker signed off": a surname in no English list, opening a sentence before a word.
        # In another language's text, a word in no list there is as often its verb ("Obtiene
        # el valor"): only a listed surname counts.
        if (
            (single.last == 2 or (single.novel and len(key) >= 4 and not self.foreign))
            and not single.place
            and not defined
            and last_i + 1 < len(self.tokens)
            and self.tokens[last_i + 1].shape == "lower"
            and _RUN_GAP.fullmatch(self._gap(last_i, last_i + 1))
        ):
            return 0.55
        if (
            listed_or_novel
            and not single.place
            and not self._sentence_start(first_i)
            and len(key) >= 3
            and (first_i == 0 or self.tokens[first_i - 1].key not in lx.THING_DETERMINERS)
            and not self._in_title_phrase(first_i, last_i)
        ):
            return 0.5
        if (
            before == "addressed"
            and single.first == 1
            and key not in self.lex.common_10
            and key not in lx.PLACES_AND_BRANDS
        ):
            return 0.6
        return None

    def _defined(self, last_i: int) -> bool:
        """Followed by "is a": how a product, a film or a company is introduced."""
        tokens = self.tokens
        if last_i + 2 >= len(tokens) or tokens[last_i + 1].key not in ("is", "was", "are"):
            return False
        return tokens[last_i + 2].key in ("a", "an", "the")

    def _in_title_phrase(self, first_i: int, last_i: int) -> bool:
        """A lone word beside capitalised English words or after a possessive: part of a title
        ("Blue Harbour Nights", "Lindqvist's Winter Tales"), not a name.
        """
        tokens = self.tokens
        if first_i > 0:
            prev = tokens[first_i - 1]
            if prev.possessive:
                return True
            if (
                prev.shape == "cap"
                and _RUN_GAP.fullmatch(self._gap(first_i - 1, first_i))
                and self.word(prev.key).breaker
                and not self.word(prev.key).title
                and not self._sentence_start(first_i - 1)
            ):
                return True
        if last_i + 1 < len(tokens):
            nxt = tokens[last_i + 1]
            if (
                nxt.shape == "cap"
                and _RUN_GAP.fullmatch(self._gap(last_i, last_i + 1))
                and self.word(nxt.key).breaker
                and not self.word(nxt.key).title
            ):
                return True
        return False

    def _vocative_end(self, first_i: int, last_i: int) -> bool:
        """A name closing a sentence after a comma: "See you at noon, Mark!"."""
        end = self.tokens[last_i].end
        if first_i == 0 or self.text[end : end + 1] not in ("!", "?"):
            return False
        return _COMMA_GAP.fullmatch(self._gap(first_i - 1, first_i)) is not None

    def _all_parts_listed(self, key: str) -> bool:
        """Every part of a hyphenated word a listed name ("Jean-Luc", not "Flask-Cors")."""
        lex = self.lex
        return all(p in lex.first_names or p in lex.last_names for p in key.split("-") if p)

    def _speaker_label(self, first_i: int, last_i: int) -> bool:
        """A name opening a line and followed by a colon: "Amy: Remember me"."""
        start = self.tokens[first_i].start
        line_start = self.text.rfind("\n", 0, start) + 1
        if self.text[line_start:start].strip(" \t\u00a0-*•>"):
            return False
        end = self.tokens[last_i].end
        return self.text[end : end + 2].rstrip() == ":"

    def _known_non_person(self, core: list[int]) -> bool:
        """A place ("São Paulo", "Hong Kong"), a country, or a company named like a person."""
        keys = [self.tokens[i].key.replace("-", " ") for i in core]
        joined = " ".join(keys)
        if joined in lx.COMPANY_NAMES:
            return True
        if len(keys) == 1:
            return joined in self.lex.countries
        return joined in self.lex.places

    def _place_feature(self, last_i: int, core: list[int]) -> bool:
        """Words before a feature or venue that make them a place: "Ross Lake", "Tybee
        Island" (the run's last word), "Glen Canyon" (the capitalised word after the run).
        """
        tokens = self.tokens

        def feature(key: str, words_before: int) -> bool:
            return key in lx.PLACE_TAILS or (key == "park" and words_before >= 2)

        if len(core) >= 2 and feature(tokens[last_i].key, len(core) - 1):
            return True
        nxt = last_i + 1
        return (
            nxt < len(tokens)
            and tokens[nxt].shape in ("cap", "caps")
            and feature(tokens[nxt].key, len(core))
            and _RUN_GAP.fullmatch(self._gap(last_i, nxt)) is not None
        )

    def _place_in_context(self, first_i: int, last_i: int, words: list[_Word]) -> bool:
        """A lone word that names a place where it stands: a city after a journey's words ("a
        trip to Barcelona"), or a city or unknown word before a country or state (", Spain").
        """
        if len(words) != 1 or not (words[0].place or words[0].novel):
            return False
        tokens = self.tokens
        if (
            words[0].place
            and first_i > 1
            and _RUN_GAP.fullmatch(self._gap(first_i - 2, first_i - 1))
            and _RUN_GAP.fullmatch(self._gap(first_i - 1, first_i))
            and f"{tokens[first_i - 2].key} {tokens[first_i - 1].key}" in lx.PLACE_CUE_PHRASES
        ):
            return True
        after = last_i + 1
        if after >= len(tokens) or not _COMMA_GAP.fullmatch(self._gap(last_i, after)):
            return False
        for end in range(after, min(after + 3, len(tokens))):
            if tokens[end].shape not in ("cap", "caps"):
                return False
            if end > after and not _RUN_GAP.fullmatch(self._gap(end - 1, end)):
                return False
            if " ".join(t.key for t in tokens[after : end + 1]) in self.lex.countries:
                return True
        return False

    def _score_pair(self, words: list[_Word], core: list[int], before: str | None) -> float | None:
        keys = [self.tokens[i].key for i in core]
        if any(
            w.first == 0 and w.last == 1 and key in self.lex.common_10
            for w, key in zip(words, keys, strict=True)
        ):
            return None  # "Agent Memory", "Notice Garcia": a plain word in the run
        if any(w.last == 2 for w in words):
            return 0.7
        # "Will Smith", "Grace Hopper": an ambiguous given name needs a surname beside it.
        if any(w.first == 1 for w in words) and any(
            w.last == 1 and key not in self.lex.common_10
            for w, key in zip(words, keys, strict=True)
        ):
            return 0.7
        # "contact Zorvath Quellington": unknown words, but addressed like a person.
        if before == "addressed" and all(w.novel for w in words):
            return 0.6
        # "Agnieszka Wróblewska", "Bill Lumbergh": every word a name or no English word at all,
        # one of them not also a common word.
        # Three unknown words are more often a phrase in another language than a name.
        listed = sum(bool(w.first or w.last) for w in words)
        if (
            all(w.first or w.last or w.novel for w in words)
            and any(w.novel or w.first == 2 or w.last == 2 for w in words)
            and (listed or len(words) == 2)
        ):
            return 0.6
        return None

    def _before(self, first_i: int) -> str | None:
        """What precedes the segment: "title" ("Dr."), "word title" ("General"), "strong" (a cue
        only a person fits), "addressed" (a verb of addressing someone) or "weak" (a preposition).
        """
        if first_i == 0:
            return None
        tokens = self.tokens
        prev = tokens[first_i - 1]
        gap = self._gap(first_i - 1, first_i)
        lower_title = prev.shape == "lower" and prev.key in lx.COURTESY_TITLES and gap[:1] == "."
        if lower_title or (prev.shape in ("cap", "caps") and self.word(prev.key).title):
            if not _TITLE_GAP.fullmatch(gap):
                return None
            # "General Public", "Judge Advocate": a title that is also a word needs a name word.
            return "title" if prev.key in lx.COURTESY_TITLES else "word title"
        if prev.key in lx.LABEL_CUES and _LABEL_GAP.fullmatch(gap):
            return "strong"
        if prev.key in _SIGNOFFS and _SIGNOFF_GAP.fullmatch(gap):
            return "strong"
        if not _CUE_GAP.fullmatch(gap):
            return None
        if prev.key in lx.STRONG_CUES:
            return "strong"
        for length in (2, 3):
            if first_i - length < 0:
                break
            start = first_i - length
            if all(_RUN_GAP.fullmatch(self._gap(j, j + 1)) for j in range(start, first_i - 1)):
                phrase = " ".join(tokens[j].key for j in range(start, first_i))
                if phrase in lx.STRONG_CUE_PHRASES:
                    return "strong"
                if phrase in lx.WEAK_CUE_PHRASES:
                    return "weak"
        if prev.key in lx.ADDRESS_VERBS:
            return "addressed"
        if prev.key in lx.WEAK_CUES:
            return "weak"
        return None

    def _after(self, last_i: int) -> str | None:
        """What follows the segment: "speech" (said), "action" (approved) or "job" (, CFO)."""
        if last_i + 1 >= len(self.tokens) or self.tokens[last_i].possessive:
            return None
        nxt = self.tokens[last_i + 1]
        gap = self._gap(last_i, last_i + 1)
        if _RUN_GAP.fullmatch(gap):
            if nxt.key in lx.SPEECH_VERBS:
                return "speech"
            if nxt.key in lx.ACTION_VERBS:
                return "action"
            if nxt.key in lx.SUBJECT_VERBS and nxt.shape in ("lower", "other"):
                return "subject"
        if (
            _COMMA_GAP.fullmatch(gap)
            and nxt.shape == "lower"
            and self._sentence_start(last_i)
            and last_i + 2 < len(self.tokens)
        ):
            return "vocative"
        if _APPOSITIVE_GAP.fullmatch(gap) and (
            nxt.key in lx.JOB_WORDS or nxt.key in _JOB_MODIFIERS
        ):
            return "job"
        return None

    def _is_org(self, first_i: int, last_i: int) -> bool:
        tokens = self.tokens
        if last_i + 1 < len(tokens):
            nxt, gap = tokens[last_i + 1], self._gap(last_i, last_i + 1)
            if nxt.key in lx.ORG_SUFFIXES and nxt.shape != "lower" and _ORG_GAP.fullmatch(gap):
                return True
            if _AMPERSAND_GAP.fullmatch(gap) and nxt.shape in ("cap", "caps"):
                return True
        if first_i > 0:
            prev, gap = tokens[first_i - 1], self._gap(first_i - 1, first_i)
            if _AMPERSAND_GAP.fullmatch(gap) and prev.shape in ("cap", "caps"):
                return True
        return False

    def _place_head(self, first_i: int) -> bool:
        tokens = self.tokens
        if tokens[first_i].key.split("-")[0] in lx.PLACE_HEADS:
            return True  # "San Jose", "Санкт-Петербург"
        if first_i == 0:
            return False
        prev = tokens[first_i - 1]
        return (
            prev.key in lx.PLACE_HEADS
            and prev.shape == "cap"
            and _TITLE_GAP.fullmatch(self._gap(first_i - 1, first_i)) is not None
        )

    def _surname_before(self, first_i: int, head: int) -> int:
        """Start of "Smith, " when the name is written "Smith, John"."""
        tokens = self.tokens
        begin = tokens[first_i].start
        if first_i != head or first_i < 1 or self.word(tokens[head].key).first != 2:
            return begin
        p = first_i - 1
        surname = tokens[p]
        word = self.word(surname.key)
        if (
            surname.shape != "cap"
            or word.breaker
            or (word.last == 0 and not word.novel)
            or word.first == 2
            or surname.key in self.lex.common_10
            or surname.key in lx.PLACES_AND_BRANDS
            or not re.fullmatch(r",[ \t]{1,2}", self._gap(p, first_i))
        ):
            return begin
        if p > 0 and self._continues(p - 1, p) and self._name_like(p - 1):
            before = self.word(tokens[p - 1].key)
            if before.first or before.last == 2 or before.novel:
                return begin  # "Olivia Brown, John": Brown ends another name
        return surname.start

    def _with_suffix(self, last_i: int, end: int) -> int:
        """Extend over "Jr.", ", Sr.", "III" after a name."""
        if last_i + 1 >= len(self.tokens) or self.tokens[last_i].possessive:
            return end
        nxt = self.tokens[last_i + 1]
        if nxt.key not in lx.NAME_SUFFIXES or nxt.shape not in ("cap", "caps"):
            return end
        if not _SUFFIX_GAP.fullmatch(self.text[end : nxt.start]):
            return end
        return nxt.end + (1 if self.text[nxt.end : nxt.end + 1] == "." else 0)
