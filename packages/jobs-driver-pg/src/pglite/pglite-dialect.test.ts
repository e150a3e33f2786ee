import { PGlite } from '@electric-sql/pglite';
import { type Generated, Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PGliteDialect } from './pglite-dialect.js';

interface Tables {
  items: { name: string; n: Generated<number> };
}

// One PGlite for the file (seconds to start, far longer while the whole suite runs).
let pglite: PGlite;
let db: Kysely<Tables>;

beforeAll(async () => {
  pglite = await PGlite.create();
  db = new Kysely<Tables>({ dialect: new PGliteDialect(pglite) });
  await sql`create table items (name text not null, n int not null default 0)`.execute(db);
}, 180_000);
afterAll(async () => {
  await db?.destroy();
  await pglite?.close();
});
beforeEach(async () => {
  await db.deleteFrom('items').execute();
});

const names = async () =>
  (await db.selectFrom('items').select('name').orderBy('name').execute()).map((row) => row.name);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PGliteDialect', () => {
  it('reports the rows each insert, update and delete touched, and none for a select', async () => {
    const inserted = await db
      .insertInto('items')
      .values([{ name: 'a' }, { name: 'b' }, { name: 'c' }])
      .executeTakeFirstOrThrow();
    expect(inserted.numInsertedOrUpdatedRows).toBe(3n);
    const updated = await db
      .updateTable('items')
      .set({ n: 1 })
      .where('name', '<>', 'c')
      .executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(2n);
    const deleted = await db.deleteFrom('items').where('name', '=', 'a').executeTakeFirstOrThrow();
    expect(deleted.numDeletedRows).toBe(1n);
    const none = await db
      .updateTable('items')
      .set({ n: 2 })
      .where('name', '=', 'zz')
      .executeTakeFirstOrThrow();
    expect(none.numUpdatedRows).toBe(0n);
    const selected = await db.executeQuery(sql`select name from items`.compile(db));
    expect(selected.numAffectedRows).toBeUndefined();
    expect(selected.rows).toHaveLength(2);
  });

  it('runs concurrent transactions one after the other: a rollback takes only its own rows', async () => {
    const order: string[] = [];
    const failing = db.transaction().execute(async (trx) => {
      order.push('t1 begin');
      await trx.insertInto('items').values({ name: 'rolled-back' }).execute();
      await pause(50); // the other transaction must wait through this
      order.push('t1 throw');
      throw new Error('roll back');
    });
    const committing = db.transaction().execute(async (trx) => {
      order.push('t2 begin');
      await trx.insertInto('items').values({ name: 'committed' }).execute();
    });
    const outside = db.insertInto('items').values({ name: 'autocommit' }).execute();
    await expect(failing).rejects.toThrow('roll back');
    await committing;
    await outside;
    expect(order).toEqual(['t1 begin', 't1 throw', 't2 begin']);
    expect(await names()).toEqual(['autocommit', 'committed']);
  });

  it('keeps many concurrent transactions apart: exactly the committed ones survive', async () => {
    const outcomes = Array.from({ length: 12 }, (_, index) => ({
      name: `t${String(index).padStart(2, '0')}`,
      commit: index % 3 !== 0,
    }));
    const runs = outcomes.map(({ name, commit }) =>
      db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('items').values({ name }).execute();
          await pause(1);
          await trx.updateTable('items').set({ n: sql`n + 1` }).where('name', '=', name).execute();
          if (!commit) throw new Error(name);
        })
        .catch(() => undefined),
    );
    await Promise.all(runs);
    expect(await names()).toEqual(outcomes.filter((o) => o.commit).map((o) => o.name));
    const counts = await db.selectFrom('items').select('n').execute();
    expect(counts.every((row) => row.n === 1)).toBe(true);
  });

  it('applies isolation level and access mode', async () => {
    const level = await db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(
        async (trx) =>
          (
            await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(
              trx,
            )
          ).rows[0]?.level,
      );
    expect(level).toBe('serializable');
    const readOnly = db
      .transaction()
      .setAccessMode('read only')
      .execute((trx) => trx.insertInto('items').values({ name: 'nope' }).execute());
    await expect(readOnly).rejects.toMatchObject({ code: '25006' });
    expect(await names()).toEqual([]);
  });

  it('rolls back to a savepoint and releases one', async () => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('items').values({ name: 'kept' }).execute();
    const afterKept = await trx.savepoint('before "odd" name').execute();
    await afterKept.insertInto('items').values({ name: 'undone' }).execute();
    const back = await afterKept.rollbackToSavepoint('before "odd" name').execute();
    const again = await back.savepoint('second').execute();
    await again.insertInto('items').values({ name: 'released' }).execute();
    const released = await again.releaseSavepoint('second').execute();
    await released.commit().execute();
    expect(await names()).toEqual(['kept', 'released']);
  });

  it('streams a result in chunks', async () => {
    await db
      .insertInto('items')
      .values(Array.from({ length: 5 }, (_, index) => ({ name: `s${index}` })))
      .execute();
    const seen: string[] = [];
    for await (const row of db.selectFrom('items').select('name').orderBy('name').stream(2))
      seen.push(row.name);
    expect(seen).toEqual(['s0', 's1', 's2', 's3', 's4']);
  });

  it('leaves the PGlite instance open on destroy, after the statement in flight', async () => {
    const other = new Kysely<Tables>({ dialect: new PGliteDialect(pglite) });
    const inFlight = other.transaction().execute(async (trx) => {
      await pause(20);
      await trx.insertInto('items').values({ name: 'finished' }).execute();
    });
    await pause(1);
    await other.destroy();
    await inFlight;
    expect((await pglite.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    expect(await names()).toEqual(['finished']);
  });
});
