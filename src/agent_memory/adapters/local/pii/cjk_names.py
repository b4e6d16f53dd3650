"""Person names written in Chinese, Japanese and Korean characters.

These scripts put no space between words, so the Latin-script recogniser's runs of capitalised
words do not apply. A name is a common surname and one or two given-name characters:

- beside an honorific or a role word ("王小明先生", "山田さん", "田中部長", "김민수 씨"), or after
  a cue that introduces a person ("我叫王小明", "名前は山田太郎", "担当：佐藤");
- on its own between non-name characters ("王小明，男，" at a résumé's start), when it is a
  Chinese surname and its given characters are among the common given-name characters:
  "高速", "王国" and "金融" read as words.

Chinese and Korean surnames are hand-listed (``_world_names``); Japanese surnames and given
names come from the ``japanese-personal-name-dataset`` package (MIT), read on first use.
"""

from __future__ import annotations

import csv
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

from agent_memory.adapters.local.pii import _world_names as wn
from agent_memory.adapters.local.pii.lexicon import words
from agent_memory.core.ports import PiiEntity

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々"
_KANA = "\u3041-\u309f\u30a0-\u30ff\u31f0-\u31ff"
_HANGUL = "\uac00-\ud7a3"

# Courtesy titles after a Chinese name: the surname and up to two given characters before them.
CHINESE_COURTESY = words("先生 女士 小姐 太太 夫人")
# Role words after a Chinese surname alone: "王经理", "张老师" (not "金杜律师事务所律师").
CHINESE_ROLES = words(
    """
    经理 經理 老师 老師 教授 医生 醫生 同学 同學 总监 總監 总经理 總經理 董事长 董事長 局长 局長
    处长 處長 科长 科長 部长 部長 主任 师傅 師傅 律师 律師 博士
    """
)
# Japanese honorifics and titles after a surname or a full name: "山田さん", "田中部長".
JAPANESE_HONORIFICS = words(
    """
    さん 様 さま 氏 君 くん ちゃん 殿 先輩 先生 教授 課長 社長 係長 部長 次長 専務 常務 会長 選手
    議員 監督
    """
)
HONORIFICS = CHINESE_COURTESY | CHINESE_ROLES | JAPANESE_HONORIFICS
KOREAN_HONORIFICS = words(
    """
    씨 님 선생님 교수님 교수 대표님 대표 부장님 부장 과장님 과장 팀장님 팀장 사장님 사장 박사님 박사
    군 양
    """
)
# Role words a person's name stands before ("김민수 고객님", "박지영 대리", "환자분"), with or
# without the honorific 님 or 분.
KOREAN_ROLES = words(
    """
    고객 회원 환자 직원 사원 주임 대리 차장 이사 상무 전무 원장 실장 매니저 변호사 기자 작가 의원
    선수 감독 학생 선배 후배 담당자 대표이사 본부장 센터장 소장 원장 총장 위원 위원장 간호사 의사
    """
)
# Cues before a name.
CUES = words(
    """
    我叫 我是 名叫 叫做 姓名 名字是 名字叫 联系人 聯絡人 联络人 负责人 負責人 经办人 經辦人 收件人
    签名 簽名 署名 申请人 申請人 客户 客戶 名前は 氏名 担当 担当者 私は 名義 宛先 差出人
    """
)
KOREAN_CUES = words("이름은 성명 담당자 저는")
_LABEL = re.compile(r"[ \t]*[:：][ \t]*")
# Given-name characters common in Chinese names: a run bounded by punctuation is a name only
# when its given part uses them ("王伟", "王小明"), not "王国" or "高速".
GIVEN_CHARACTERS = frozenset(
    """
    伟偉芳娜敏静靜丽麗强強磊军軍洋勇艳艷杰傑娟涛濤明超秀霞平刚剛桂英华華玉兰蘭萍红紅鹏鵬辉輝玲燕飞飛
    鑫波斌宇浩凯凱健俊帆帅帥旭宁寧龙龍林欣佳颖穎晨阳陽雪琳晶丹慧婷倩莉梅琴云雲莹瑩峰嘉楠瑶瑤怡雯璐
    晓曉小志文海东東军亮成国國建春兴興新光中良生祥荣榮福贵貴德庆慶永松山清宏鸿鴻振家昊天子轩軒涵梓
    睿博泽澤然思雨萱诗詩琪婉蓉薇菲娇嬌淑惠珍贞貞珊芬芝慧凤鳳翠彩丽露瑞琦昕悦悅妍一二三立正义義仁
    礼禮智信伦倫彬磊坤鹏勤毅峻岩琛珂璇鹤鶴鸣鳴晖暉杨宏骏駿冬梦夢月星宝寶秋红
    """.replace("\n", "").replace(" ", "")
)

# Given-name characters that, after a surname character, more often make a word ("王国",
# "中文", "新生"): a two-character run needs a cue or an honorific then.
_WORD_FORMING = frozenset("国國中文新光生家天子一二三立正义義成山清海东東平永林明华華德")

_HAN_RUN = re.compile(f"[{_HAN}]+")
_CJK_RUN = re.compile(f"[{_HAN}{_KANA}]+")
_HANGUL_WORD = re.compile(f"[{_HANGUL}]+")
_MAX_GIVEN = 3


@dataclass(frozen=True, slots=True)
class _Lists:
    surnames: frozenset[str]  # Chinese and Japanese, in Han characters
    japanese_given: frozenset[str]
    longest_surname: int


_lock = threading.Lock()
_lists: _Lists | None = None


def _load() -> _Lists:
    global _lists
    with _lock:
        if _lists is None:
            chinese = set(wn.CHINESE_SURNAMES.split()) | set(wn.CHINESE_DOUBLE_SURNAMES.split())
            japanese, given = _japanese()
            surnames = frozenset(chinese | japanese)
            _lists = _Lists(surnames, given, max(map(len, surnames)))
        return _lists


def _japanese() -> tuple[set[str], frozenset[str]]:
    """Surnames and kanji given names from japanese-personal-name-dataset, if installed."""
    try:
        folder = resources.files("japanese_personal_name_dataset").joinpath("dataset")
    except ModuleNotFoundError:
        return set(), frozenset()
    surnames = {row[0] for row in _rows(folder.joinpath("last_name_org.csv").read_text("utf-8"))}
    given: set[str] = set()
    for name in ("first_name_man_org.csv", "first_name_woman_org.csv"):
        for row in _rows(folder.joinpath(name).read_text("utf-8")):
            given.update(spelling for spelling in row[2:] if len(spelling) <= _MAX_GIVEN)
    return {s for s in surnames if s}, frozenset(given)


def _rows(text: str) -> Iterator[list[str]]:
    return (row for row in csv.reader(text.splitlines()) if row)


_BIO = re.compile(
    f"(?<![{_HAN}])([{_HAN}]{{2,4}})"
    "(?=(?:[（(][^）)]{0,16}[）)])?[ \t]*[，,：:][ \t]*[男女][，,。；;、 \t])"
)


def _biographies(text: str) -> Iterator[PiiEntity]:
    """A name opening a biography: "王小明，男，", "郑培敏：男，", "韩文武（离任）：男，"."""
    for m in _BIO.finditer(text):
        name = m.group(1)
        if name[0] in _CHINESE_SURNAMES or name[:2] in _CHINESE_SURNAMES:
            yield PiiEntity("NAME", m.start(1), m.end(1), 0.8)


def find(text: str) -> Iterator[PiiEntity]:
    """NAME entities written in Han, kana or Hangul characters."""
    if not any("\u3040" <= c <= "\ud7a3" or "\uf900" <= c <= "\ufaff" for c in text):
        return
    lists = _load()
    yield from _biographies(text)
    for run in _CJK_RUN.finditer(text):
        yield from _in_run(text, run.start(), run.end(), lists)
    for word in _HANGUL_WORD.finditer(text):
        entity = _korean(text, word.start(), word.end())
        if entity is not None:
            yield entity


def _in_run(text: str, start: int, end: int, lists: _Lists) -> Iterator[PiiEntity]:
    run = text[start:end]
    taken = 0
    # A name before an honorific inside the run: "…山田太郎さん…".
    for i in range(len(run)):
        if i < taken:
            continue
        honorific = _starts_with(run, i, HONORIFICS)
        if honorific is None or i == 0:
            continue
        name = None
        if honorific in JAPANESE_HONORIFICS:
            name = _name_ending_at(run, taken, i, lists)
        if name is None and honorific not in JAPANESE_HONORIFICS - CHINESE_ROLES:
            name = _chinese_before(run, taken, i, honorific)
        if name is not None:
            taken = i
            yield PiiEntity("NAME", start + name, start + i, 0.8)
    # A name after a cue: "我叫王小明", "名前は山田太郎", "担当：佐藤".
    for cue in CUES:
        for m in re.finditer(re.escape(cue), run):
            if m.start() < taken:
                continue
            if m.end() < len(run):
                name = _name_starting_at(run, m.end(), lists)
                if name is not None:
                    yield PiiEntity("NAME", start + m.end(), start + name, 0.8)
            elif end < len(text):
                label = _LABEL.match(text, end)
                nxt = _CJK_RUN.match(text, label.end()) if label else None
                name = _name_starting_at(nxt.group(), 0, lists) if nxt else None
                if nxt is not None and name is not None:
                    yield PiiEntity("NAME", nxt.start(), nxt.start() + name, 0.8)
    # A Chinese full name on its own, between non-name characters: "王小明，男".
    if taken == 0 and _bounded_name(run, lists):
        yield PiiEntity("NAME", start, end, 0.6)
        return
    # A Japanese full name between kana or punctuation: "山田太郎は", "、佐藤花子が".
    for han in _HAN_RUN.finditer(run):
        if han.start() >= taken and _japanese_full_name(han.group(), lists):
            yield PiiEntity("NAME", start + han.start(), start + han.end(), 0.6)


def _starts_with(run: str, i: int, options: frozenset[str]) -> str | None:
    for length in (3, 2, 1):
        if run[i : i + length] in options:
            return run[i : i + length]
    return None


def _chinese_before(run: str, floor: int, end: int, honorific: str) -> int | None:
    """Start of a Chinese name before ``honorific`` at ``end``: a surname and up to two given
    characters before a courtesy title ("王小明先生"), a surname alone before a role ("王经理").
    """
    if honorific in CHINESE_COURTESY:
        for given in (2, 1):
            begin = end - given - 1
            part = run[begin + 1 : end]
            if begin >= floor and run[begin] in _CHINESE_SURNAMES and _chinese_given(part):
                return begin
    for length in (2, 1):  # double surnames: "欧阳先生"
        begin = end - length
        if begin >= floor and run[begin:end] in _CHINESE_SURNAMES:
            return begin
    return None


def _chinese_given(part: str) -> bool:
    return all(_is_han(c) for c in part) and any(c in GIVEN_CHARACTERS for c in part)


def _name_ending_at(run: str, floor: int, end: int, lists: _Lists) -> int | None:
    """Start of the longest surname (+ given name) that ends at ``end``."""
    best = None
    for begin in range(max(floor, end - lists.longest_surname - _MAX_GIVEN), end):
        for length in range(min(lists.longest_surname, end - begin), 0, -1):
            surname = run[begin : begin + length]
            given = run[begin + length : end]
            if surname in lists.surnames and _given_ok(given, lists):
                best = begin
                break
        if best is not None:
            return best
    if end - floor >= 2 and _is_kana_name(run[floor:end]):
        return floor
    return None


def _name_starting_at(run: str, begin: int, lists: _Lists) -> int | None:
    """End of a surname and given name starting at ``begin``."""
    for length in range(min(lists.longest_surname, len(run) - begin), 0, -1):
        if run[begin : begin + length] not in lists.surnames:
            continue
        rest = run[begin + length :]
        for given in range(min(_MAX_GIVEN, len(rest)), -1, -1):
            tail = rest[given:]
            if _given_ok(rest[:given], lists) and (not tail or not _is_han(tail[0]) or given):
                return begin + length + given
    return None


def _given_ok(given: str, lists: _Lists) -> bool:
    if not given:
        return True
    if not all(_is_han(c) for c in given):
        return False
    return given in lists.japanese_given or (
        len(given) <= 2 and any(c in GIVEN_CHARACTERS for c in given)
    )


def _bounded_name(run: str, lists: _Lists) -> bool:
    if not 2 <= len(run) <= 4 or not all(_is_han(c) for c in run):
        return False
    for length in (2, 1):
        surname, given = run[:length], run[length:]
        if surname not in _CHINESE_SURNAMES or not 1 <= len(given) <= 2:
            continue
        if all(c in GIVEN_CHARACTERS for c in given) and not (
            len(given) == 1 and given in _WORD_FORMING
        ):
            return True
    return False


def _japanese_full_name(han: str, lists: _Lists) -> bool:
    """A surname of two or more characters and a listed kanji given name: "山田太郎"."""
    for length in range(2, min(lists.longest_surname, len(han) - 1) + 1):
        if han[:length] in lists.surnames and han[length:] in lists.japanese_given:
            return True
    return False


def _is_han(c: str) -> bool:
    return "\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" or c == "々"


def _is_kana_name(part: str) -> bool:
    """A katakana name before an honorific: "マイクさん"."""
    return all("\u30a0" <= c <= "\u30ff" for c in part)


_KOREAN_BEFORE = re.compile(f"([{_HANGUL}]+)[ \t]*[:：]?[ \t]*$")
_KOREAN_AFTER = re.compile(f"[ \t]+([{_HANGUL}]+)")
_CHINESE_SURNAMES = frozenset(wn.CHINESE_SURNAMES.split() + wn.CHINESE_DOUBLE_SURNAMES.split())
_KOREAN_SURNAMES = frozenset(wn.KOREAN_SURNAMES.split())
_KOREAN_PARTICLES = (
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "의",
    "에게",
    "께",
    "께서",
    "와",
    "과",
    "도",
    "에게서",
    "한테",
)


def _korean(text: str, start: int, end: int) -> PiiEntity | None:
    """A Hangul name of two to four syllables, its first a common surname, with an honorific
    after it ("김민수 씨", "김민수님"), a role word ("김민수 고객님이", "박지영 대리") or a cue
    before it ("제 이름은 김민수").
    """
    word = text[start:end]
    for honorific in sorted(KOREAN_HONORIFICS, key=len, reverse=True):
        stem = word.removesuffix(honorific)
        # Attached, only a three-syllable name: "고객님" (dear customer) is no name.
        if stem != word and len(stem) == 3 and stem[0] in _KOREAN_SURNAMES:
            return PiiEntity("NAME", start, start + len(stem), 0.8)
    after = _KOREAN_AFTER.match(text, end)
    title = _without_particle(after.group(1)) if after is not None else ""
    if word[0] in _KOREAN_SURNAMES and (
        (title in KOREAN_HONORIFICS and 2 <= len(word) <= 4)
        # A role word follows nouns too ("신규 고객님"): only a three-syllable name before it.
        or (title.removesuffix("님").removesuffix("분") in KOREAN_ROLES and len(word) == 3)
    ):
        return PiiEntity("NAME", start, end, 0.8)
    before = _KOREAN_BEFORE.search(text[max(0, start - 12) : start])
    if before is not None and before.group(1) in KOREAN_CUES and word[0] in _KOREAN_SURNAMES:
        stem = word
        for particle in (*_KOREAN_PARTICLES, "입니다", "이에요", "예요", "이다"):
            if stem.endswith(particle) and len(stem) - len(particle) >= 2:
                stem = stem[: -len(particle)]
                break
        if len(stem) == 3:
            return PiiEntity("NAME", start, start + len(stem), 0.7)
    return None


def _without_particle(word: str) -> str:
    for particle in sorted(_KOREAN_PARTICLES, key=len, reverse=True):
        if word.endswith(particle) and len(word) > len(particle):
            return word[: -len(particle)]
    return word
