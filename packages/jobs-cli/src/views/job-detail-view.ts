import { attemptsLabel, failureStack } from '@x/jobs-core';
import type { ShowJson } from '@x/jobs-dashboard';
import { formatDuration, formatWhen } from '@x/jobs-dashboard';
import type { Palette } from '../output/colour.js';
import { renderTable } from '../output/table.js';
import { colourState, colourStepStatus } from './state-colour.js';

/** `show` for a human: the row, why it stopped, its steps, then the redacted input. */
export function renderJobDetail(data: ShowJson, p: Palette, now: number): string {
  const job = data.job;
  const label = (text: string): string => p.dim(text.padEnd(13));
  const lines: string[] = [
    `${p.bold(job.name)} ${p.dim(job.id)}  ${colourState(job.state, p)}`,
    `${label('queue')}${job.queue}${job.priority === 0 ? '' : `  priority ${job.priority}`}`,
    `${label('tenant')}${job.tenantId ?? p.dim('none')}`,
    `${label('key')}${job.idempotencyKey}`,
    `${label('attempts')}${attemptsLabel(job)}`,
    `${label('enqueued')}${formatWhen(job.enqueuedAt, now)}${job.enqueuedBy === null ? '' : ` by ${job.enqueuedBy}`}`,
    `${label('run at')}${formatWhen(job.runAt, now)}`,
  ];
  if (job.startedAt !== null) lines.push(`${label('started')}${formatWhen(job.startedAt, now)}`);
  if (job.finishedAt !== null) lines.push(`${label('finished')}${formatWhen(job.finishedAt, now)}`);
  if (job.state === 'running' && job.workerId !== null) {
    const lease = job.leaseExpiresAt === null ? '' : `, lease until ${formatWhen(job.leaseExpiresAt, now)}`;
    lines.push(`${label('worker')}${job.workerId}${lease}`);
  }
  if (job.waitingFor !== null) lines.push(`${label('waiting for')}event '${job.waitingFor}'`);
  if (job.progress !== null) {
    const { current, total } = job.progress;
    const percent = total === null || total === 0 ? '' : ` (${Math.round((current / total) * 100)}%)`;
    lines.push(`${label('progress')}${current}${total === null ? '' : `/${total}`}${percent}`);
  }
  if (job.stopReason !== null) lines.push(`${label('stop reason')}${p.red(job.stopReason)}`);
  if (job.cancelReason !== null) lines.push(`${label('cancelled')}${job.cancelReason}`);
  if (job.lastError !== null) {
    lines.push(`${label('last error')}${p.red(job.lastError.code)}: ${job.lastError.message}`);
  }
  if (job.traceparent !== null) lines.push(`${label('trace')}${p.dim(job.traceparent)}`);
  lines.push('', p.bold('Steps'));
  if (job.steps.length === 0) {
    lines.push(p.dim('  none recorded yet'));
  } else {
    const table = renderTable(
      [
        { header: '#', align: 'right' },
        { header: 'STEP' },
        { header: 'STATUS' },
        { header: 'DURATION', align: 'right' },
        { header: 'ERROR' },
      ],
      job.steps.map((step) => [
        String(step.position),
        step.name,
        colourStepStatus(step.status, p),
        step.durationMs === null ? p.dim('—') : formatDuration(step.durationMs),
        step.error === null ? '' : `${p.red(step.error.code)}: ${step.error.message}`,
      ]),
      p.dim,
    );
    lines.push(indent(table));
  }
  lines.push('', p.bold('Failed attempts'));
  if (job.errors.length === 0) lines.push(p.dim('  none'));
  for (const error of job.errors) {
    const step = error.step === null ? '' : ` ${p.dim('in step')} ${error.step}`;
    lines.push(
      `  ${p.bold(`#${error.attempt}`)} ${p.dim(formatWhen(error.at, now))}  ${p.red(error.code)} ${error.name}: ${error.message}${step}${
        error.truncated ? p.dim(' (cut to fit)') : ''
      }`,
    );
    lines.push(indent(indent(p.dim(failureStack(error)))));
  }
  lines.push('', `${p.bold('Input')} ${p.dim('(values of sensitive keys shown as [redacted])')}`);
  lines.push(indent(JSON.stringify(job.payload, null, 2)));
  if (job.state === 'done' && job.result !== null) {
    lines.push('', p.bold('Result'), indent(JSON.stringify(job.result, null, 2)));
  }
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
