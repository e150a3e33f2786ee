export type { WebhookErrorCode } from './errors.js';
export { WEBHOOK_ERROR_CODES } from './errors.js';
export { isValidEventId } from './inbound/event-id.js';
export type { ReceivedWebhook, WebhookReceiverHandle } from './inbound/received-webhook.js';
export type {
  InboundWebhook,
  ReceiverHandleArgs,
  VerifiedWebhook,
  VerifierAnswer,
  WebhookReceiverDefinition,
  WebhookVerifier,
} from './inbound/receiver-definition.js';
export type { WebhookRequestHandler } from './inbound/receiver-handler.js';
export {
  DEFAULT_RECEIVER_MAX_BYTES,
  DEFAULT_RECEIVER_RETRY_AFTER_SECONDS,
} from './inbound/resolve-receiver.js';
export type { StandardWebhooksVerifierOptions } from './inbound/standard-webhooks-verifier.js';
export { standardWebhooksVerifier } from './inbound/standard-webhooks-verifier.js';
export { webhookHandler, webhookReceiver } from './inbound/webhook-receiver.js';
export type { NodeRequestListener } from './node/node-webhook-listener.js';
export { nodeWebhookListener } from './node/node-webhook-listener.js';
export { classifyResponse, type ResponseVerdict } from './outbound/classify-response.js';
export type { MemoryWebhookLedger } from './outbound/memory-webhook-ledger.js';
export { memoryWebhookLedger } from './outbound/memory-webhook-ledger.js';
export {
  DEFAULT_WEBHOOK_DISABLE_AFTER,
  DEFAULT_WEBHOOK_RETRY,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
} from './outbound/resolve-webhook.js';
export { parseRetryAfter } from './outbound/retry-after.js';
export type { WebhookHandle } from './outbound/webhook.js';
export { webhook } from './outbound/webhook.js';
export type {
  WebhookDefinition,
  WebhookDelivery,
  WebhookDeliveryResult,
  WebhookEndpoint,
  WebhookEvent,
  WebhookReadContext,
} from './outbound/webhook-definition.js';
export type {
  WebhookAttempt,
  WebhookAttemptStatus,
  WebhookDisableReason,
  WebhookLedger,
} from './outbound/webhook-ledger.js';
export { FAILED_ATTEMPT_STATUSES } from './outbound/webhook-ledger.js';
export type { SignWebhookInput, StandardWebhookHeaders } from './standard-webhooks/sign-webhook.js';
export { signWebhook } from './standard-webhooks/sign-webhook.js';
export type { VerifiedSignature, VerifyWebhookInput } from './standard-webhooks/verify-webhook.js';
export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyWebhook } from './standard-webhooks/verify-webhook.js';
export {
  generateWebhookSecret,
  WEBHOOK_SECRET_PREFIX,
  webhookSecretKey,
} from './standard-webhooks/webhook-secret.js';
