"""What is scrubbed before anything is stored, and how text is shown to the detector."""
