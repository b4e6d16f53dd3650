"""The domain's values and rules: records, errors, policies, calibrations, receipts."""
