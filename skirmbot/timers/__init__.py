"""Turn timers: time controls, each match's clock, and the one scheduler that fires deadlines."""
