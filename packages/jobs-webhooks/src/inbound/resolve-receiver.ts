import { type JobDriver, parseDuration } from '@x/jobs-core';
import { webhookError } from '../errors.js';
import { webhookSecretKey } from '../standard-webhooks/webhook-secret.js';
import type { WebhookReceiverDefinition, WebhookVerifier } from './receiver-definition.js';
import { standardWebhooksVerifier } from './standard-webhooks-verifier.js';

/** The default `maxBytes`: 1 MiB. */
export const DEFAULT_RECEIVER_MAX_BYTES = 1024 * 1024;
/** The default `Retry-After` of a 503, in seconds. */
export const DEFAULT_RECEIVER_RETRY_AFTER_SECONDS = 30;

/** What the request handler reads of a receiver. */
export interface ResolvedReceiver {
  readonly name: string;
  readonly verify: WebhookVerifier;
  readonly maxBytes: number;
  readonly retryAfterSeconds: number;
  readonly driver: JobDriver | undefined;
}

/** Checks a receiver definition at declaration; each refusal is `X_WEBHOOK_RECEIVER_INVALID` naming `meta.field`. */
export function resolveReceiver(definition: WebhookReceiverDefinition<unknown>): ResolvedReceiver {
  if (typeof definition !== 'object' || definition === null)
    throw invalid('definition', 'expected an object');
  const { name, tenant, verify, secret, handle, maxBytes, retryAfterSeconds } = definition;
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name', 'required, a non-empty string');
  if (tenant !== 'none' && typeof tenant !== 'function')
    throw invalid('tenant', "required, (event) => orgId or 'none'");
  if (typeof handle !== 'function') throw invalid('handle', 'required, a function');
  if ((verify === undefined) === (secret === undefined)) {
    throw invalid(
      'verify',
      'give verify (any function) or secret (the Standard Webhooks verifier), exactly one',
    );
  }
  if (verify !== undefined && typeof verify !== 'function') throw invalid('verify', 'a function');
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 1)) {
    throw invalid('maxBytes', 'a positive integer');
  }
  if (
    retryAfterSeconds !== undefined &&
    (!Number.isSafeInteger(retryAfterSeconds) || retryAfterSeconds < 0)
  ) {
    throw invalid('retryAfterSeconds', 'a non-negative integer');
  }
  return {
    name,
    verify: verify ?? defaultVerifier(secret!, definition.tolerance),
    maxBytes: maxBytes ?? DEFAULT_RECEIVER_MAX_BYTES,
    retryAfterSeconds: retryAfterSeconds ?? DEFAULT_RECEIVER_RETRY_AFTER_SECONDS,
    driver: definition.driver,
  };
}

function defaultVerifier(
  secret: string | readonly string[],
  tolerance: WebhookReceiverDefinition<unknown>['tolerance'],
): WebhookVerifier {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0)
    throw invalid('secret', "one or more 'whsec_<base64>'");
  for (const one of secrets) {
    try {
      webhookSecretKey(one);
    } catch {
      throw invalid('secret', "each secret must be 'whsec_<base64>'");
    }
  }
  let toleranceSeconds: number | undefined;
  if (tolerance !== undefined) {
    try {
      toleranceSeconds = Math.floor(parseDuration(tolerance) / 1000);
    } catch {
      throw invalid('tolerance', "a positive duration ('5m')");
    }
  }
  return standardWebhooksVerifier({
    secret: secrets,
    ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
  });
}

function invalid(field: string, problem: string) {
  return webhookError('X_WEBHOOK_RECEIVER_INVALID', `webhookReceiver() ${field}: ${problem}.`, { field });
}
