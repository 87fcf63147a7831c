import { type CheckSpec, ensure, Inconclusive, ensureValue } from '../../lib/engine/check.ts';

import { tokenOf } from '../shared.ts';
import {
  controlToken,
  expectTokenRefused,
  expectTokenAccepted,
  grantWithRefresh,
  introspect,
  probe,
} from './helpers.ts';

const DAY = 86_400;

export const refreshChecks: CheckSpec[] = [
  // ---- refresh tokens ----------------------------------------------------------------------------------
  {
    name: 'refresh-rotates',
    requirements: ['TOK-09'],
    title: 'a refresh returns a new access token and a new refresh token, and the new access token works',
    async run(ctx) {
      const g = await grantWithRefresh(ctx, ctx.customer(0));
      const r = await ctx.tokens.refresh(g.refresh);
      const t = tokenOf(r, 'refresh');
      ensureValue(
        typeof t.access_token === 'string' && t.access_token !== g.access,
        'access_token',
        'the refresh did not return a new access token',
        'a new access_token',
        t.access_token === g.access ? 'the same one' : typeof t.access_token,
      );
      ensureValue(
        typeof t.refresh_token === 'string' && t.refresh_token.length > 0,
        'refresh_token',
        'the refresh did not return a refresh token',
        'a new refresh_token',
        typeof t.refresh_token,
      );
      ensureValue(
        t.refresh_token !== g.refresh,
        'refresh_token',
        'the refresh returned the same refresh token (not rotated)',
        'a new refresh_token',
        'the same one',
      );
      const res = await probe(ctx, t.access_token, 'refreshed access token');
      ensure(res.status !== 401, 'the refreshed access token gets 401', 'accepted', res.status);
      await expectTokenAccepted(ctx, res, 'the refreshed access token');
    },
  },
  {
    name: 'refresh-reuse-revokes-grant',
    requirements: ['TOK-10'],
    title:
      'a used (rotated) refresh token is refused, and its re-use revokes the grant (the newest refresh token fails too)',
    async run(ctx) {
      const g = await grantWithRefresh(ctx, ctx.customer(0));
      const first = await ctx.tokens.refresh(g.refresh);
      controlToken(first, 'first refresh');
      const newest = first.token?.refresh_token;
      if (typeof newest !== 'string') throw new Inconclusive('the refresh gave no refresh token');
      expectTokenRefused(
        await ctx.tokens.refresh(g.refresh),
        'invalid_grant',
        [400],
        'second use of a rotated refresh token',
      );
      expectTokenRefused(
        await ctx.tokens.refresh(newest),
        'invalid_grant',
        [400],
        'the newest refresh token after the re-use of an old one',
      );
      // where the profile names an introspection endpoint, the grant's newest access token's state is evidence too
      // (noted, not judged: the rule is about the refresh tokens)
      const access = first.token?.access_token;
      if (typeof access === 'string') await introspect(ctx, access, "the grant's newest access token after the re-use");
    },
  },
  {
    name: 'refresh-idle-limit',
    requirements: ['TOK-11'],
    title: 'a refresh token unused for more than contract.tokens.refreshIdleDays is refused',
    needs: ['clock'],
    exclusive: true,
    // its first move (a day less than the limit) is the group's; then it lets the limit pass on the moves of
    // refresh-max-age, which exchanges a token of its own every few months, so both walks take one
    clockGroup: 'token-expiry',
    async run(ctx) {
      const { refreshIdleDays: idle, refreshMaxDays: max } = ctx.profile.contract.tokens;
      const g = await grantWithRefresh(ctx, ctx.customer(0));
      // control: unused for a day less than the limit, it still works
      const first = await ctx.clock.advanceTogether((idle - 1) * DAY, (idle - 1) * DAY);
      // every move from here on, whoever makes it: how old the family can be when its last refresh is answered
      const since = ctx.clock.stopwatch();
      // the refresh must be answered within the idle limit: no move until then
      const r = await ctx.clock.hold('a refresh token renewed within its idle limit', () =>
        ctx.tokens.refresh(g.refresh),
      );
      controlToken(r, `refresh after ${first / DAY} idle days`);
      const next = r.token?.refresh_token;
      if (typeof next !== 'string') throw new Inconclusive('the refresh gave no refresh token');
      const unused = await ctx.clock.waitFor((idle + 1) * DAY);
      const res = await ctx.tokens.refresh(next);
      // the refusal must be the idle limit's, not the maximum age's: the family was younger than that
      const age = first + since();
      if (age >= max * DAY)
        throw new Inconclusive(
          `the refresh token family may have been ${Math.floor(age / DAY)} days old when its refresh was answered: past the maximum age too`,
        );
      expectTokenRefused(res, 'invalid_grant', [400], `refresh after ${Math.floor(unused / DAY)} idle days`);
    },
  },
  {
    name: 'refresh-max-age',
    requirements: ['TOK-11'],
    title: 'a refresh token family older than contract.tokens.refreshMaxDays is refused, even when exchanged regularly',
    needs: ['clock'],
    exclusive: true,
    clockGroup: 'token-expiry',
    async run(ctx) {
      const { refreshIdleDays: idle, refreshMaxDays: max } = ctx.profile.contract.tokens;
      const step = Math.max(1, idle - 2);
      const g = await grantWithRefresh(ctx, ctx.customer(0));
      let rt = g.refresh;
      // exchanged at most every `idle - 1` days (under the idle limit) up to just before the maximum age: each
      // must work; the first move is the clock group's (a day under the idle limit at most)
      let days = (await ctx.clock.advanceTogether(step * DAY, (idle - 1) * DAY)) / DAY;
      if (days + 1 >= max)
        throw new Inconclusive(`the clock group moved ${days} days at once: the family is already too old`);
      for (let i = 0; i < 50; i++) {
        const r = await ctx.tokens.refresh(rt);
        controlToken(r, `refresh on day ${days} (exchanged every ${step} days at most)`);
        if (typeof r.token?.refresh_token !== 'string') throw new Inconclusive('the refresh gave no refresh token');
        rt = r.token.refresh_token;
        if (days + step >= max) break;
        await ctx.clock.advance(step * DAY);
        days += step;
      }
      const last = max - days + 1; // <= step + 1 < idle: not idle, only too old
      if (last >= idle)
        throw new Inconclusive(
          `the walk stopped ${last} days short of the maximum age: the last refresh would be idle too`,
        );
      await ctx.clock.advance(last * DAY);
      expectTokenRefused(
        await ctx.tokens.refresh(rt),
        'invalid_grant',
        [400],
        `refresh on day ${days + last} of the grant (limit ${max} days)`,
      );
    },
  },
];
