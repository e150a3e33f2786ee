#!/usr/bin/env bash
# Regenerates schema.sql: migrates a scratch schema on DATABASE_URL, dumps its DDL with pg_dump and
# normalises it (no comments, SET lines or session guards; the scratch name becomes x_jobs), then
# drops the scratch schema. Commit the result so a DDL change shows up in review.
set -euo pipefail
cd "$(dirname "$0")/.."
url=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
scratch="x_jobs_dump_$$"
trap 'psql "$url" -qXc "drop schema if exists $scratch cascade" >/dev/null 2>&1 || true' EXIT
node --conditions=@x/source --import tsx -e "
  const { migrate } = await import('./src/migrate.ts');
  await migrate({ connectionString: process.argv[1] }, { schema: process.argv[2] });
" "$url" "$scratch"
pg_dump "$url" --schema-only --no-owner --no-privileges --schema="$scratch" |
  grep -v -e '^--' -e '^SET ' -e '^SELECT pg_catalog' -e '^\\restrict' -e '^\\unrestrict' |
  sed "s/$scratch/x_jobs/g" | cat -s | sed '/./,$!d' > schema.sql
echo "wrote schema.sql"
