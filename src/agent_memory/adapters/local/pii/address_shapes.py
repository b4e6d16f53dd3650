"""Postal addresses of other countries and scripts: after an address label in many languages,
street-type abbreviations written before the name (``ul.``, ``ул.``, ``C/``), Russian house and
flat numbers, and the administrative order of Chinese, Japanese and Korean addresses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from agent_memory.core.ports import PiiEntity

__all__ = ["find_world_addresses"]

# "Address:" in the languages the detector reads, then the address up to the end of its line.
_LABEL = re.compile(
    r"(?<![^\W\d_])(?i:address|home\s+address|postal\s+address|mailing\s+address|adresse|"
    r"anschrift|wohnadresse|lieferadresse|rechnungsadresse|adres|bezorgadres|dirección|direccion|"
    r"domicilio|endereço|endereco|morada|indirizzo|recapito|adresa|adressi|osoite|cím|lakcím|"
    r"adres\s+zamieszkania|adresi|адрес|адреса|место\s+жительства)[ \t]*[:：][ \t]*"
    # A CJK label stands in running text too ("주소 표현"): only with its colon.
    r"|(?<![IP\w])(?:地址|住址|收货地址|收件地址|送货地址|住所|所在地|送付先|お届け先|주소|배송지)"
    r"[ \t]*[:：][ \t]*"
)
# "IP address:", "adresse e-mail :", "wallet address:": a label of something else.
_OTHER_ADDRESS = re.compile(
    r"(?i:ip|ipv[46]|mac|e-?mail|mail|web|server|api|wallet|memory|host|network|bitcoin|btc|"
    r"ethereum|eth|contract|base|return|hex|url|site|proxy|ip-|de\s+correo|electr[oó]nica|"
    r"de\s+e-?mail|internet|электронной\s+почты|ip-адрес|메모리|이메일|호스트|네트워크|서버|웹|"
    r"内存|邮件|电子邮件|网络|服务器|主机|メール|ネットワーク|サーバー?|ホスト)[ \t-]*$"
)
# The address after a label: up to the end of the line or of the sentence, with a digit in it.
_LABELLED_VALUE = re.compile(r"[^\n\r。；;!?！？]{4,120}")
# A full stop before a capital ends the sentence, unless it ends an abbreviation of at most
# three letters ("ul. Marszałkowska", "д. 7").
_STOP = re.compile(r"(?P<word>[^\s.]*)\.[ \t]+(?=[A-ZÀ-ÝА-ЯЁ])")
_ABBREVIATION = re.compile(r"[^\W\d_]{1,3}")
_STREET_ABBREVIATION = re.compile(
    r"(?<![^\W\d_])(?<!et )(?<!et\xa0)"
    r"(?:(?:ul|al|pl|os|ул|пр|пр-т|просп|пер|ш|наб|бул|пл|вул|Avda|Av|Pza|Rr|Str)\.|C/|Pº"
    r"|(?:ulica|aleja|plac|улица|проспект|переулок|шоссе|бульвар|площадь|вулиця)(?=[ \t]))[ \t]*"
    r"(?P<name>[A-ZÀ-ÝĄĆĘŁŃÓŚŹŻА-ЯЁІЇЄ][^\W\d_]+(?:[ \t-][A-ZÀ-ÝĄĆĘŁŃÓŚŹŻА-ЯЁІЇЄ]?[^\W\d_]+){0,3})"
    r",?[ \t]*(?:д\.|дом|буд\.|nr|n[º°o]\.?)?[ \t]*\d{1,4}[A-Za-zА-Яа-я]?(?:[/-]\d{1,4}[A-Za-z]?)?"
    r"(?:,?[ \t]*(?:кв\.|квартира|корп\.|стр\.|m\.|lok\.|piso|[º°]|apt\.?)[ \t]*"
    r"\d{1,4}[A-Za-zА-Яа-я]?)*"
)
_HAN = "\u4e00-\u9fff"
_NUMBER = r"[0-9０-９一二三四五六七八九十百]+"
# 北京市朝阳区建国路88号; 广东省深圳市南山区科技园路1号3栋.
_CHINESE = re.compile(
    rf"(?:[{_HAN}]{{2,3}}(?:省|自治区))?[{_HAN}]{{2,4}}市(?:[{_HAN}]{{1,4}}[区县])?"
    rf"[{_HAN}]{{1,12}}?(?:路|街|道|巷|弄|大道|胡同){_NUMBER}号"
    rf"(?:[{_HAN}]{{0,6}}?{_NUMBER}(?:栋|楼|座|单元|室|层))*"
)
# 〒100-0005 東京都千代田区丸の内1-9-1; 大阪府大阪市北区梅田3丁目1番3号.
_JAPANESE = re.compile(
    rf"(?:〒?[ \t]*\d{{3}}-\d{{4}}[ \t]*)?(?:東京都|北海道|大阪府|京都府|[{_HAN}]{{2,3}}県)"
    rf"[{_HAN}\u3040-\u30ff]{{1,8}}?[市区町村郡][{_HAN}\u3040-\u30ff]{{0,12}}?"
    rf"(?:{_NUMBER}(?:丁目|番地|番|号|-|－|ー)){{1,3}}{_NUMBER}?"
)
# 서울특별시 강남구 테헤란로 152; 부산광역시 해운대구 우동 123-4.
_KOREAN = re.compile(
    r"[가-힣]{2,6}(?:특별시|광역시|특별자치시|도|시)[ \t]+[가-힣]{1,6}(?:구|군|시)[ \t]+"
    r"(?:[가-힣]{1,6}(?:구|동|읍|면)[ \t]+)?[가-힣0-9]{1,10}(?:로|길|동)[ \t]*\d{1,5}(?:-\d{1,4})?"
)


def find_world_addresses(text: str) -> Iterator[PiiEntity]:
    """Addresses by the shapes of other countries and scripts, and after an address label."""
    for pattern in (_STREET_ABBREVIATION, _CHINESE, _JAPANESE, _KOREAN):
        for m in pattern.finditer(text):
            yield PiiEntity("ADDRESS", m.start(), _trim(text, m.start(), m.end()), 0.75)
    for label in _LABEL.finditer(text):
        if _OTHER_ADDRESS.search(text, max(0, label.start() - 24), label.start()):
            continue
        value = _LABELLED_VALUE.match(text, label.end())
        if value is None or not _opens_an_address(value.group()):
            continue
        end = _sentence_end(text, value.start(), value.end())
        end = _trim(text, value.start(), end)
        if any(c.isdigit() for c in text[value.start() : end]):
            yield PiiEntity("ADDRESS", value.start(), end, 0.7)


def _opens_an_address(value: str) -> bool:
    """A number, a capital, a letter of an uncased script or a street abbreviation first:
    prose after the label ("Address: see the ticket") is no address.
    """
    first = value[0]
    return (
        first.isdigit()
        or first.isupper()
        or (first.isalpha() and not first.islower())
        or _STREET_ABBREVIATION.match(value) is not None
    )


def _sentence_end(text: str, begin: int, end: int) -> int:
    for stop in _STOP.finditer(text, begin, end):
        if not _ABBREVIATION.fullmatch(stop.group("word")):
            return stop.start() + len(stop.group("word"))
    return end


def _trim(text: str, begin: int, end: int) -> int:
    while end > begin and text[end - 1] in " \t,.;:":
        end -= 1
    return end
