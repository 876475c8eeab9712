// maildev ships no types; this is the part the tests use (maildev 2.x).
declare module 'maildev' {
  interface MailDevOptions {
    smtp?: number;
    ip?: string;
    disableWeb?: boolean;
    silent?: boolean;
    mailDirectory?: string;
  }
  interface MailDevServer {
    listen(): Promise<void>;
    close(callback: () => void): void;
    getAllEmail(callback: (err: Error | null, mails: never[]) => void): void;
  }
  const MailDev: new (options: MailDevOptions) => MailDevServer;
  export default MailDev;
}
