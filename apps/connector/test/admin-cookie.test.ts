// The session cookie's attributes: HttpOnly and SameSite=Strict always; Secure with the __Host-
// prefix (Path=/, no Domain) when the connector is public over HTTPS.
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../src/admin/admin-cookie';
import { cookiePolicyFor } from '../src/admin';

function fakeResponse() {
  const cookies: string[] = [];
  const res = {
    append: (name: string, value: string) => {
      if (name === 'Set-Cookie') cookies.push(value);
      return res;
    },
  };
  return { res: res as unknown as Response, cookies };
}

const request = (cookie: string) => ({ get: () => cookie }) as unknown as Request;

describe('admin session cookie', () => {
  it('over HTTPS: __Host- prefix, Secure, HttpOnly, SameSite=Strict, Path=/', () => {
    const policy = cookiePolicyFor('https://connector.example.com');
    const { res, cookies } = fakeResponse();
    setSessionCookie(res, policy, 'token-value', 600);
    expect(cookies).toEqual([
      '__Host-incident-desk-admin=token-value; Path=/; HttpOnly; SameSite=Strict; Max-Age=600; Secure',
    ]);
    expect(readSessionCookie(request('a=b; __Host-incident-desk-admin=token-value'), policy)).toBe(
      'token-value',
    );
    // the plain name is not accepted where the prefixed one is expected
    expect(readSessionCookie(request('incident-desk-admin=token-value'), policy)).toBeUndefined();
  });

  it('in local development over HTTP: no Secure (browsers would drop it), Path=/admin', () => {
    const policy = cookiePolicyFor('http://localhost:8787');
    const { res, cookies } = fakeResponse();
    setSessionCookie(res, policy, 'v', 60);
    expect(cookies[0]).toBe(
      'incident-desk-admin=v; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=60',
    );
    clearSessionCookie(res, policy);
    expect(cookies[1]).toContain('Max-Age=0');
  });
});
