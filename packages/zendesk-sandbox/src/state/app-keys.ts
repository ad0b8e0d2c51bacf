// The apps installed in the sandbox's accounts, as Zendesk keeps them: an RSA key pair per app
// (Zendesk signs the app's ZAF JWTs with it and publishes the public half at
// /api/v2/apps/{app_id}/public_key.pem), and one installation per account and app, with its own id.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';

export interface AppKeyPair {
  privateKey: KeyObject;
  publicKeyPem: string;
}

/** The registry as a saved state keeps it: keys as PKCS#8 PEM. */
export interface AppRegistrySnapshot {
  keys: { appId: number; privateKeyPem: string }[];
  installations: { subdomain: string; appId: number; id: number }[];
  nextInstallationId: number;
}

export class AppRegistry {
  private readonly keys = new Map<number, AppKeyPair>();
  private readonly installations = new Map<string, number>();
  private nextInstallationId = 360_000_000_001;

  keyOf(appId: number): AppKeyPair {
    let pair = this.keys.get(appId);
    if (!pair) pair = this.rotateKey(appId);
    return pair;
  }

  /** A new key pair for the app: tokens signed before no longer verify with the published key. */
  rotateKey(appId: number): AppKeyPair {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pair = {
      privateKey,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    this.keys.set(appId, pair);
    return pair;
  }

  /** The installation of the app in the account, created on first use. */
  install(subdomain: string, appId: number): number {
    const key = `${subdomain}\u0000${appId}`;
    let id = this.installations.get(key);
    if (id === undefined) {
      id = this.nextInstallationId++;
      this.installations.set(key, id);
    }
    return id;
  }

  /** Removes the installation with this id from the account; false when it has none such. */
  uninstall(subdomain: string, installationId: number): boolean {
    const prefix = `${subdomain}\u0000`;
    for (const [key, id] of this.installations) {
      if (key.startsWith(prefix) && id === installationId) return this.installations.delete(key);
    }
    return false;
  }

  installationsOf(subdomain: string): { id: number; app_id: number }[] {
    const prefix = `${subdomain}\u0000`;
    return [...this.installations.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, id]) => ({ id, app_id: Number(key.slice(prefix.length)) }));
  }

  snapshot(): AppRegistrySnapshot {
    return {
      keys: [...this.keys].map(([appId, pair]) => ({
        appId,
        privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      })),
      installations: [...this.installations].map(([key, id]) => {
        const [subdomain, appId] = key.split('\u0000');
        return { subdomain: subdomain!, appId: Number(appId), id };
      }),
      nextInstallationId: this.nextInstallationId,
    };
  }

  /** Replaces the registry with a saved one: the same keys sign, the same installations answer. */
  restore(snapshot: AppRegistrySnapshot): void {
    this.keys.clear();
    for (const { appId, privateKeyPem } of snapshot.keys) {
      const privateKey = createPrivateKey(privateKeyPem);
      const publicKeyPem = createPublicKey(privateKey)
        .export({ type: 'spki', format: 'pem' })
        .toString();
      this.keys.set(appId, { privateKey, publicKeyPem });
    }
    this.installations.clear();
    for (const { subdomain, appId, id } of snapshot.installations)
      this.installations.set(`${subdomain}\u0000${appId}`, id);
    this.nextInstallationId = snapshot.nextInstallationId;
  }
}
