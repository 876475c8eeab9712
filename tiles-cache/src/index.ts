export * from './errors.js';
export * from './fs.store.js';
export * from './keys.js';
export * from './memory-front.store.js';
export * from './open-store.js';
export * from './s3.store.js';
export * from './store.js';
export * from './upload-directory.js';
