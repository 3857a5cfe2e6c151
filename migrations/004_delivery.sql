-- 004: messages that must always arrive (issue 11). When Discord refuses a direct message to a
-- player (403, code 50007: their DMs are closed to the bot), the time is kept here, and their
-- reminders go to the match's channel from then on, without trying the DM first. NULL: no DM
-- has failed, or the player chose again with /timer reminders since.
ALTER TABLE players ADD COLUMN dms_closed_at REAL;
