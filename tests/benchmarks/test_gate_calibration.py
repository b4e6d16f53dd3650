from benchmarks.research.gate_calibration import summary


def test_the_word_share_is_set_at_the_unrelated_sides_99th_percentile() -> None:
    # Given 100 unrelated memories' best runs at word shares 0.00 to 0.99, and evidence runs
    unrelated = [i / 100 for i in range(100)]
    evidence = [0.2, 0.6, 1.0, 1.0]
    values = {
        "similarity": {"evidence run": [0.5], "unrelated memory's best run": [0.1]},
        "word share": {"evidence run": evidence, "unrelated memory's best run": unrelated},
    }
    # When they are summarised
    report = summary(values)["word share"]
    # Then the threshold is the unrelated side's p99 to two decimals, and each side's pass
    # rates count the values at or above each threshold
    assert report["unrelated p99, two decimals"] == 0.98
    assert report["unrelated memory's best run"]["passing at"]["0.5"] == 0.5
    assert report["evidence run"]["passing at"]["0.5"] == 0.75
    assert report["evidence run"]["percentiles"]["p50"] == 0.8
