"""The infantry rules (rulebook 002, "Skirmishers"): troopers with HP cells and AP that fall as
HP fall, 2D6 target numbers, firing arcs, explosives, on a hexagonal grid of dots
(skirmbot.rules.dots). Being built (issue 31; the plan: docs/plans/infantry.md): not yet a
ruleset in `PACKAGES`."""
