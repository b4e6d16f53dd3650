"""Addresses of other countries and scripts: after an address label in many languages, street
abbreviations before the name, Russian house and flat numbers, and CJK administrative order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.adapters.local.pii import LocalPiiDetector

DETECTOR = LocalPiiDetector()
SETTINGS = settings(max_examples=40, deadline=None)

LATIN_NAMES = st.sampled_from(
    ["Marszałkowska", "Mayor", "Tverskaya", "Nowy Świat", "Gran Vía", "Piotrkowska", "Długa"]
)
CYRILLIC_NAMES = st.sampled_from(["Тверская", "Ленина", "Садовая", "Хрещатик", "Пушкина"])
HOUSE = st.integers(1, 999).map(str)
HAN = st.text(alphabet="朝阳海淀南山福田建国中山人民解放", min_size=1, max_size=3)


def addresses(text: str) -> list[str]:
    return [text[e.begin : e.end] for e in DETECTOR.detect(text) if e.type == "ADDRESS"]


def covered(text: str, part: str) -> bool:
    start = text.index(part)
    return any(
        e.type == "ADDRESS" and e.begin <= start and e.end >= start + len(part)
        for e in DETECTOR.detect(text)
    )


@SETTINGS
@given(
    abbreviation=st.sampled_from(["ul.", "al.", "pl.", "C/", "Avda.", "ulica"]),
    name=LATIN_NAMES,
    number=HOUSE,
    flat=st.sampled_from(["", "/12", "/4a", " m. 5", " lok. 3"]),
)
def test_a_street_abbreviation_before_the_name_makes_an_address(
    abbreviation: str, name: str, number: str, flat: str
) -> None:
    # Given a street written the continental way: abbreviation, name, number, flat
    street = f"{abbreviation} {name} {number}{flat}"
    text = f"Proszę wysłać na {street}, dziękuję."
    # Then the street is found whole
    assert covered(text, street), (text, addresses(text))


@SETTINGS
@given(
    kind=st.sampled_from(["ул.", "просп.", "пер.", "улица", "вул."]),
    name=CYRILLIC_NAMES,
    house=HOUSE,
    flat=st.integers(1, 300),
)
def test_a_russian_address_with_house_and_flat_is_found_whole(
    kind: str, name: str, house: str, flat: int
) -> None:
    street = f"{kind} {name}, д. {house}, кв. {flat}"
    text = f"Доставка по адресу {street} завтра."
    assert covered(text, street), (text, addresses(text))


@SETTINGS
@given(city=HAN, district=HAN, road=HAN, number=st.integers(1, 999))
def test_a_chinese_address_in_administrative_order_is_found(
    city: str, district: str, road: str, number: int
) -> None:
    address = f"{city}市{district}区{road}路{number}号"
    text = f"请寄到{address}，谢谢。"
    assert covered(text, address), (text, addresses(text))


@SETTINGS
@given(
    prefecture=st.sampled_from(["東京都", "大阪府", "北海道", "神奈川県"]),
    ward=st.sampled_from(["千代田区", "横浜市", "札幌市中央区", "大阪市北区"]),
    block=st.tuples(st.integers(1, 9), st.integers(1, 30), st.integers(1, 20)),
)
def test_a_japanese_address_with_block_numbers_is_found(
    prefecture: str, ward: str, block: tuple[int, int, int]
) -> None:
    address = f"{prefecture}{ward}丸の内{block[0]}-{block[1]}-{block[2]}"
    text = f"送付先：{address}までお願いします。"
    assert covered(text, address), (text, addresses(text))


@SETTINGS
@given(
    city=st.sampled_from(["서울특별시", "부산광역시", "경기도"]),
    district=st.sampled_from(["강남구", "해운대구", "수원시"]),
    road=st.sampled_from(["테헤란로", "세종대로", "중앙로"]),
    number=st.integers(1, 999),
)
def test_a_korean_road_address_is_found(city: str, district: str, road: str, number: int) -> None:
    address = f"{city} {district} {road} {number}"
    text = f"배송지는 {address} 입니다."
    assert covered(text, address), (text, addresses(text))


@pytest.mark.parametrize(
    ("label", "address"),
    [
        ("Adresse :", "Rue du Moulin 4, 1000 Bruxelles"),
        ("Anschrift:", "Lindenweg 3a, 8001 Zürich"),
        ("Dirección:", "Calle Mayor 5, 2º izquierda"),
        ("Endereço:", "Avenida Atlântica 1702, Copacabana"),
        ("Indirizzo:", "Corso Buenos Aires 21, Milano"),
        ("Adresa:", "Václavské náměstí 12, Praha"),
        ("Адрес:", "Москва, Садовая 12"),
        ("住所：", "横浜市西区みなとみらい2-2-1"),
    ],
)
def test_the_line_after_an_address_label_is_an_address(label: str, address: str) -> None:
    text = f"{label} {address}. Merci."
    assert covered(text, address), (text, addresses(text))


@pytest.mark.parametrize(
    "text",
    [
        "Address: see the ticket 4521 for details. Then call",
        "the API address: 10.0.0.1 port 8080",
        "IP-Adresse: 10.1.2.3",
        "Wallet address: 0x52908400098527886E0F7030069857D2E4169EE7",
        "Smith et al. Proceedings 12 pages",
        "Adresse e-mail : voir le profil 12",
        "Die Adresse: bitte per Mail.",
        "주소 표현의 총 비트 수: IPv4의 경우 32, IPv6의 경우 128",
        "IP 주소: 192.168.0.1 포트 8080",
        "メールアドレス：user 12",
        "内存地址：0x7ffe1234",
    ],
)
def test_other_addresses_and_prose_after_a_label_are_no_postal_address(text: str) -> None:
    assert addresses(text) == []
