import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR } from '../../../shared/api/api-error.js';
import { formatBytes, formatNumber, retryOutcome } from './job-format.js';
import { isJobRunning, JOB_MONITORS } from './jobs.api.js';

describe('job monitor formats', () => {
  it('writes sizes in decimal units', () => {
    expect(formatBytes(0, 'en-US')).toBe('0 B');
    expect(formatBytes(999, 'en-US')).toBe('999 B');
    expect(formatBytes(1500, 'en-US')).toBe('1.5 kB');
    expect(formatBytes(5_428_127, 'en-US')).toBe('5.4 MB');
    expect(formatBytes(2.5e9, 'fr')).toBe('2,5 GB');
    expect(formatBytes(null)).toBe('');
    expect(formatBytes(Number.NaN)).toBe('');
  });

  it('writes numbers with the locale separators', () => {
    expect(formatNumber(10_653_336, 'en-US', 0)).toBe('10,653,336');
    expect(formatNumber(12.345, 'en-US')).toBe('12.35');
    expect(formatNumber(12.345, 'fr')).toBe('12,35');
    expect(formatNumber(undefined)).toBe('');
  });
});

describe('retry messages (spec §4)', () => {
  it('sorts an answer into launched, failed to launch and error on retry', () => {
    expect(retryOutcome(undefined)).toBe('launched');
    expect(retryOutcome(new ApiError(409, 'JOB_NOT_FAILED', 'not a failure'))).toBe('refused');
    expect(retryOutcome(new ApiError(409, 'PROJECT_NOT_READY', 'the point cloud failed'))).toBe('refused');
    expect(retryOutcome(new ApiError(404, 'JOB_NOT_FOUND', 'no such job'))).toBe('refused');
    expect(retryOutcome(new ApiError(500, 'INTERNAL', 'boom'))).toBe('error');
    expect(retryOutcome(new ApiError(0, NETWORK_ERROR, 'offline'))).toBe('error');
    expect(retryOutcome(new TypeError('x'))).toBe('error');
  });
});

describe('job monitors', () => {
  it('refresh only while a job is pending or running', () => {
    expect(isJobRunning({ status: 'PENDING' })).toBe(true);
    expect(isJobRunning({ status: 'PROGRESS' })).toBe(true);
    expect(isJobRunning({ status: 'SUCCESS' })).toBe(false);
    expect(isJobRunning({ status: 'FAILURE' })).toBe(false);
    expect(isJobRunning({ status: 'NONE' })).toBe(false);
  });

  it('call the API paths of spec §2', () => {
    expect(JOB_MONITORS).toEqual({
      PROCESSING: 'process-data',
      TILING: 'tiling',
      METADATA: 'metadata-processing',
      CLASSIFICATION_EDIT: 'classification-edits',
    });
  });
});
