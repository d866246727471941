-- Dashboard sessions end after SESSION_IDLE_MINUTES without use, besides their SESSION_TTL_HOURS
-- lifetime (issue 22, part B): the last authenticated request of each session, written at most about
-- once a minute. Sessions open at migration time count as seen now.
ALTER TABLE "Session" ADD COLUMN "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
