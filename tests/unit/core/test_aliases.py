"""Short forms of a block's pseudonyms: numbered as shown, declared once, read back exactly."""

from agent_memory.core.privacy.aliases import Aliases, expanded, shortened, without_pseudonyms

ANA = "[NAME-23b9f54473]"
BO = "[NAME-f558545bac]"
CY = "[NAME-0a1b2c3d4e]"
CITY = "[LOCATION-0a1b2c3d4e]"


def test_each_pseudonym_is_numbered_in_the_order_shown_per_type() -> None:
    # Given a block's aliases
    alias = Aliases()
    # When lines naming two people and a place, each four times, are laid out and finished
    said = [f"{ANA}: hi {BO}, see you in {CITY}", f"{BO}: bye {ANA}, bye {CITY}"]
    lines, declared = alias.finish([alias(line) for line in said * 2])
    legend = declared.rendered() if declared else None
    # Then the same pseudonym keeps its number, and each type counts on its own
    assert lines[:2] == [
        "[NAME-1]: hi [NAME-2], see you in [LOCATION-1]",
        "[NAME-2]: bye [NAME-1], bye [LOCATION-1]",
    ]
    # And the legend says what each stands for, in that order
    assert legend == (
        f"Pseudonyms, shortened here: [NAME-1] is {ANA}; [NAME-2] is {BO}; [LOCATION-1] is {CITY}"
    )


def test_a_name_laid_out_but_cut_from_its_line_is_neither_numbered_nor_declared() -> None:
    # Given a long text whose first name falls outside the part a line shows
    alias = Aliases()
    laid_out = alias(f"{CY} wrote a long preface. Then {ANA} met {BO}")
    shown = laid_out[laid_out.index("Then") :]
    # When the block is finished with the part shown, four times over
    lines, declared = alias.finish([shown] * 4)
    legend = declared.rendered() if declared else None
    # Then only the names shown are numbered, from 1, and declared
    assert lines[0] == "Then [NAME-1] met [NAME-2]"
    assert legend is not None and CY not in legend and legend.count(" is ") == 2


def test_a_name_shown_fewer_than_four_times_is_shown_in_full() -> None:
    # Given one name shown four times and another three times
    alias = Aliases()
    lines, declared = alias.finish([alias(f"{ANA}: saw {BO}")] * 3 + [alias(f"{ANA}: bye")])
    legend = declared.rendered() if declared else None
    # Then only the first is shortened and declared: the other's declaration would cost
    # more than its short form saves
    assert lines == [f"[NAME-1]: saw {BO}"] * 3 + ["[NAME-1]: bye"]
    assert legend == f"Pseudonyms, shortened here: [NAME-1] is {ANA}"


def test_a_number_stored_text_already_uses_is_skipped() -> None:
    # Given stored text that itself says "[NAME-1]"
    stored = "the form's field [NAME-1] was blank"
    alias = Aliases([stored])
    # When a pseudonym is shortened beside it
    lines, declared = alias.finish([alias(f"{ANA} called")] * 4 + [stored])
    legend = declared.rendered() if declared else None
    # Then it takes the next free number, and the stored short form is left as it was
    assert lines == ["[NAME-2] called"] * 4 + [stored]
    assert legend == f"Pseudonyms, shortened here: [NAME-2] is {ANA}"


def test_no_pseudonym_means_no_legend_and_text_unchanged() -> None:
    alias = Aliases()
    lines, declared = alias.finish([alias("plain [NAME] label and [EMAIL]")])
    legend = declared.rendered() if declared else None
    assert lines == ["plain [NAME] label and [EMAIL]"] and legend is None


def test_a_block_read_with_its_legend_has_every_pseudonym_back() -> None:
    # Given a block shown through aliases, with its legend first
    alias = Aliases()
    said = [f"{ANA}: I met {BO}", f"{BO}: yes, [NAME-7] too, and {ANA}"] * 2
    lines, declared = alias.finish([alias(line) for line in said])
    legend = declared.rendered() if declared else None
    block = "\n".join([f"> {legend}", *(f"> {line}" for line in lines)])
    # When it is expanded
    read = expanded(block).splitlines()
    # Then the short forms it declares are full pseudonyms again; one it never declared stays
    assert read[1:] == [f"> {line}" for line in said]
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


def test_the_stand_in_is_as_long_as_a_short_form_and_digests_are_no_words() -> None:
    text = f"{ANA} and {BO} in {CITY}"
    alias = Aliases()
    assert len(shortened(text)) == len(alias.finish([alias(text)] * 4)[0][0])
    assert without_pseudonyms(text).split() == ["and", "in"]
