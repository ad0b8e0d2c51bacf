-- The comment a report carried gets a kind of its own: it is recognised by its text only, and never
-- absorbs another history entry by its time as a call of unknown wording would (the report was the
-- call). Rows recorded before this keep their old kind until retention removes them.
-- AlterEnum
ALTER TYPE "echo_kind" ADD VALUE 'report_comment';
