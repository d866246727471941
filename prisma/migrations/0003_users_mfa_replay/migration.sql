-- TOTP replay protection (RFC 6238 section 5.2): the time step of the last accepted code; a code
-- of that step or an earlier one is refused.
ALTER TABLE "User" ADD COLUMN "mfaLastTimeStep" INTEGER;
