-- The admin page speaks the signed-in admin's Zendesk locale (users/me), kept with the session.
ALTER TABLE "admin_session" ADD COLUMN "locale" TEXT;
