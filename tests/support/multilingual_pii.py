# ruff: noqa: E501  (one item per line: the sentences are data)
"""Personal data and credentials as support, billing and engineering agents write them in many
languages: one sentence per item, the value that must never be stored, and its language.

Written once, before the detector rules of this language coverage were tuned, and not tuned on
since: the check that each class holds on text its rules were not fitted to. Numbers are valid
(check digits computed with python-stdnum); none belongs to a real person.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    """One piece of personal data or a credential, in the sentence that carries it."""

    kind: str
    language: str
    value: str
    sentence: str
    parts: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.language}:{self.kind}:{self.value}"


ITEMS = (
    # --- names outside Latin script or English sentences -----------------------------------
    Item("NAME", "ja", "山田太郎", "担当の山田太郎さんから請求書の再発行依頼がありました。"),
    Item("NAME", "ja", "佐藤花子", "佐藤花子様のアカウントを本日ロック解除しました。"),
    Item("NAME", "zh", "王小明", "客户王小明反映发票金额有误，已转交财务部处理。"),
    Item("NAME", "zh", "李娜", "李娜女士要求将合同寄到新的办公地址。"),
    Item("NAME", "ko", "김민수", "김민수 고객님이 환불을 요청하셨습니다."),
    Item(
        "NAME",
        "ru",
        "Сидоров Иван Петрович",
        "Договор подписал Сидоров Иван Петрович, генеральный директор.",
        ("Сидоров",),
    ),
    Item(
        "NAME",
        "ru",
        "Ольга Николаевна Смирнова",
        "Клиентка Ольга Николаевна Смирнова просит вернуть оплату.",
        ("Смирнова",),
    ),
    Item("NAME", "ar", "محمد العتيبي", "تواصل العميل محمد العتيبي بخصوص الفاتورة المتأخرة.", ("العتيبي",)),
    Item("NAME", "tr", "Ayşe Yılmaz", "Fatura itirazını Müşteri Ayşe Yılmaz dün iletti.", ("Yılmaz",)),
    Item("NAME", "tr", "Mehmet Öztürk", "Sözleşmeyi Mehmet Öztürk imzaladı.", ("Öztürk",)),
    Item("NAME", "vi", "Nguyễn Thị Lan", "Khách hàng Nguyễn Thị Lan yêu cầu hoàn tiền.", ("Nguyễn Thị",)),
    Item("NAME", "pl", "Łukasz Kowalski", "Reklamację zgłosił Pan Łukasz Kowalski.", ("Kowalski",)),
    Item(
        "NAME",
        "es",
        "María José Fernández López",
        "La clienta María José Fernández López pidió el reembolso.",
        ("Fernández López",),
    ),
    Item("NAME", "pt", "João da Silva Santos", "O cliente João da Silva Santos ligou ontem.", ("Silva Santos",)),
    Item("NAME", "nl", "Jan de Vries", "De factuur is verstuurd naar meneer Jan de Vries.", ("de Vries",)),
    Item("NAME", "de", "Jürgen Weißmüller", "Herr Jürgen Weißmüller hat die Kündigung geschickt.", ("Weißmüller",)),
    Item("NAME", "el", "Γιώργος Παπαδόπουλος", "Ο πελάτης Γιώργος Παπαδόπουλος ζήτησε επιστροφή χρημάτων."),
    # --- credentials by what they are -------------------------------------------------------
    Item("SECRET", "fr", "Tr0ub4dor&3", "Le client dit que le mot de passe est Tr0ub4dor&3 depuis lundi."),
    Item("SECRET", "es", "Pr1mav3ra#2024", "Según el ticket, la contraseña es Pr1mav3ra#2024 y no funciona."),
    Item("SECRET", "de", "Sommer2024!xy", "Das Passwort lautet Sommer2024!xy, bitte sofort ändern."),
    Item("SECRET", "pt", "Brasil@1234", "A senha do painel é Brasil@1234, segundo o cliente."),
    Item("SECRET", "it", "Roma!2023ok", "La password è Roma!2023ok per l'utente amministratore."),
    Item("SECRET", "nl", "Tulp#8842", "Het wachtwoord is Tulp#8842 voor de beheerder."),
    Item("SECRET", "ru", "Qwerty!2024zz", "Пароль от личного кабинета: Qwerty!2024zz"),
    Item("SECRET", "ja", "Sakura_2024!", "管理画面のパスワードは Sakura_2024! です。"),
    Item("SECRET", "zh", "Abc123456!xyz", "服务器的密码是 Abc123456!xyz，请尽快修改。"),
    Item(
        "SECRET",
        "en",
        "sk-ant-api03-Jk3mN8pQ2rS5tU7vW9xY1zA4bC6dE8fG0hI2jK4lM6nO8pQ0rS2tU4vW6xY8zA0bC2dE4fG6hI8jK0lM2nO4p-QrStUvAA",
        "The agent logged its config with key sk-ant-api03-Jk3mN8pQ2rS5tU7vW9xY1zA4bC6dE8fG0hI2jK4lM6nO8pQ0rS2tU4vW6xY8zA0bC2dE4fG6hI8jK0lM2nO4p-QrStUvAA in the trace.",
    ),
    Item(
        "SECRET",
        "en",
        "hvs.CAESIJ3kL9mNpQ7rS2tUvWxYz4AbCdEfGhIjKlMnOpQrStUvGh4KHGh2cy5aWmJ3",
        "Vault returned hvs.CAESIJ3kL9mNpQ7rS2tUvWxYz4AbCdEfGhIjKlMnOpQrStUvGh4KHGh2cy5aWmJ3 for the deploy job.",
    ),
    Item(
        "SECRET",
        "en",
        "ya29.a0AfH6SMBx7Kq2LmN9pQ4rS8tU1vW3xY5zA7bC9dE2fG4hI6jK8lM0nO2pQ4rS6",
        "curl -H 'Authorization: Bearer ya29.a0AfH6SMBx7Kq2LmN9pQ4rS8tU1vW3xY5zA7bC9dE2fG4hI6jK8lM0nO2pQ4rS6' https://www.googleapis.com/drive/v3/files",
    ),
    Item(
        "SECRET",
        "en",
        "github_pat_11ABCDEFG0k9Lm8Nn7Oo6Pp_5Qq4Rr3Ss2Tt1Uu0Vv9Ww8Xx7Yy6Zz5Aa4Bb3Cc2Dd1Ee0Ff9Gg8Hh7Ii6",
        "I pushed with github_pat_11ABCDEFG0k9Lm8Nn7Oo6Pp_5Qq4Rr3Ss2Tt1Uu0Vv9Ww8Xx7Yy6Zz5Aa4Bb3Cc2Dd1Ee0Ff9Gg8Hh7Ii6 from my laptop.",
    ),
    Item(
        "SECRET",
        "en",
        "k7Vq2Rz9Lm4Tx8Wp1Yn6Hs3Jd5Gf0Bc2Nv7Qa9Ze4",
        "The second line of credentials.csv reads AKIAJ7Q3X5L2M8N4P6R1,k7Vq2Rz9Lm4Tx8Wp1Yn6Hs3Jd5Gf0Bc2Nv7Qa9Ze4",
    ),
    # --- phone numbers in national formats --------------------------------------------------
    Item("PHONE", "de", "030 90182736", "Rückruf bitte unter 030 90182736 ab 14 Uhr.", ("90182736",)),
    Item("PHONE", "de", "0151 23456789", "Erreichbar ist er unter 0151 23456789.", ("23456789",)),
    Item("PHONE", "pt", "(11) 91234-5678", "WhatsApp do cliente: (11) 91234-5678", ("91234-5678",)),
    Item("PHONE", "fr", "06 12 34 56 78", "Son portable : 06 12 34 56 78, après 18h.", ("12 34 56 78",)),
    Item("PHONE", "es", "612 34 56 78", "Llámele al 612 34 56 78 para confirmar.", ("34 56 78",)),
    Item("PHONE", "it", "347 123 4567", "Il cliente ha lasciato il numero 347 123 4567.", ("123 4567",)),
    Item("PHONE", "ru", "8 (916) 123-45-67", "Звонить по номеру 8 (916) 123-45-67.", ("123-45-67",)),
    Item("PHONE", "ja", "090-1234-5678", "連絡先は090-1234-5678までお願いします。", ("1234-5678",)),
    Item("PHONE", "zh", "138 0013 8000", "客户手机 138 0013 8000，工作日可联系。", ("0013 8000",)),
    Item("PHONE", "tr", "0532 123 45 67", "Müşteri 0532 123 45 67 numarasından aradı.", ("123 45 67",)),
    # --- national identifiers, with and without their labels --------------------------------
    Item("NATIONAL_ID", "es", "48291736Q", "El titular se identificó con DNI 48291736Q en la tienda."),
    Item("NATIONAL_ID", "it", "RSSMRA85T10A562S", "Codice fiscale del cliente: RSSMRA85T10A562S."),
    Item("NATIONAL_ID", "pt", "394.617.852-91", "CPF do titular 394.617.852-91 conferido.", ("39461785291",)),
    Item("NATIONAL_ID", "zh", "440305198807150015", "身份证号：440305198807150015，已核验。"),
    Item("NATIONAL_ID", "fr", "2 86 05 75 123 456 71", "Numéro de sécurité sociale 2 86 05 75 123 456 71.", ("286057512345671",)),
    Item("NATIONAL_ID", "de", "65929970489", "Die Steuer-ID 65929970489 fehlt auf dem Formular."),
    Item("NATIONAL_ID", "pl", "44051401359", "PESEL 44051401359 podany w formularzu."),
    Item("NATIONAL_ID", "nl", "123456782", "Het BSN van de klant is 123456782."),
    Item("NATIONAL_ID", "tr", "28471936550", "TC Kimlik No: 28471936550"),
    Item("NATIONAL_ID", "es", "GOMA850622MDFNRN01", "La CURP GOMA850622MDFNRN01 no coincide con el RFC."),
    Item("NATIONAL_ID", "sv", "811228-9874", "Kundens personnummer är 811228-9874."),
    Item("NATIONAL_ID", "ko", "850321-1234566", "주민등록번호 850321-1234566 확인 완료."),
    # --- bank and card numbers, addresses ---------------------------------------------------
    Item("CREDIT_DEBIT_NUMBER", "pt", "4929.1804.3655.7011", "Cartão 4929.1804.3655.7011 recusado.", ("4929180436557011",)),
    Item("INTERNATIONAL_BANK_ACCOUNT_NUMBER", "fr", "FR76 3000 6000 0112 3456 7890 189", "Virement vers FR76 3000 6000 0112 3456 7890 189 effectué."),
    Item("INTERNATIONAL_BANK_ACCOUNT_NUMBER", "es", "ES91 2100 0418 4502 0005 1332", "Cuenta de cargo ES91 2100 0418 4502 0005 1332."),
    Item("ADDRESS", "pt", "01310-200", "Entrega na Av. Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200."),
    Item("ADDRESS", "es", "Calle de Alcalá 45", "Enviar a Calle de Alcalá 45, 28014 Madrid.", ("Alcalá 45",)),
    Item("ADDRESS", "pl", "Marszałkowska 84/92", "Adres: ul. Marszałkowska 84/92, 00-514 Warszawa."),
    Item("ADDRESS", "ja", "丸の内1-9-1", "送付先：〒100-0005 東京都千代田区丸の内1-9-1"),
    Item("ADDRESS", "nl", "Keizersgracht 123", "Bezorgadres Keizersgracht 123, 1015 CJ Amsterdam."),
)  # fmt: skip
