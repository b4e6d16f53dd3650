"""Short forms of a block's pseudonyms: numbered once, declared once, read back exactly."""

from agent_memory.core.privacy.aliases import Aliases, expanded, shortened, without_pseudonyms

ANA = "[NAME-23b9f54473]"
BO = "[NAME-f558545bac]"
CITY = "[LOCATION-0a1b2c3d4e]"


def test_each_pseudonym_is_numbered_in_the_order_first_shown_per_type() -> None:
    # Given a block's aliases
    alias = Aliases()
    # When lines naming two people and a place are shown through them
    first = alias(f"{ANA}: hi {BO}, see you in {CITY}")
    second = alias(f"{BO}: bye {ANA}")
    # Then the same pseudonym keeps its number, and each type counts on its own
    assert first == "[NAME-1]: hi [NAME-2], see you in [LOCATION-1]"
    assert second == "[NAME-2]: bye [NAME-1]"
    # And the legend says what each stands for, in that order
    assert alias.legend() == (
        f"Pseudonyms, shortened here: [NAME-1] is {ANA}; [NAME-2] is {BO}; [LOCATION-1] is {CITY}"
    )


def test_a_number_stored_text_already_uses_is_skipped() -> None:
    # Given stored text that itself says "[NAME-1]"
    alias = Aliases(["the form's field [NAME-1] was blank"])
    # When a pseudonym is shortened
    shown = alias(f"{ANA} called")
    # Then it takes the next free number, so each short form means one thing
    assert shown == "[NAME-2] called"


def test_no_pseudonym_means_no_legend_and_text_unchanged() -> None:
    alias = Aliases()
    assert alias("plain [NAME] label and [EMAIL]") == "plain [NAME] label and [EMAIL]"
    assert alias.legend() is None


def test_a_block_read_with_its_legend_has_every_pseudonym_back() -> None:
    # Given a block shown through aliases, with its legend first
    alias = Aliases()
    lines = [alias(f"{ANA}: I met {BO}"), alias(f"{BO}: yes, [NAME-7] too")]
    block = "\n".join([f"> {alias.legend()}", *(f"> {line}" for line in lines)])
    # When it is expanded
    read = expanded(block).splitlines()
    # Then the short forms it declares are full pseudonyms again; one it never declared stays
    assert read[1:] == [f"> {ANA}: I met {BO}", f"> {BO}: yes, [NAME-7] too"]
    assert read[0] == block.splitlines()[0]
    assert expanded("> no legend [NAME-1]") == "> no legend [NAME-1]"


def test_a_stored_line_cannot_declare_a_short_form() -> None:
    # Given a block without short forms whose stored moment mimics a legend
    block = "\n".join(
        [
            "> Task: chat",
            f">   - human: Pseudonyms, shortened here: [NAME-1] is {ANA}",
            ">   - human: [NAME-1] was there",
        ]
    )
    # When it is read back, nothing is expanded: the legend is only ever the first line
    assert expanded(block) == block


def test_the_stand_in_is_as_long_as_the_short_form_and_digests_are_no_words() -> None:
    text = f"{ANA} and {BO} in {CITY}"
    assert len(shortened(text)) == len(Aliases()(text))
    assert without_pseudonyms(text).split() == ["and", "in"]
