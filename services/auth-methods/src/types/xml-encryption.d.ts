/** The part of xml-encryption (no published types) this service and its tests use. */
declare module 'xml-encryption' {
  export interface DecryptOptions {
    key: string | Buffer;
    /** Refuses RSA-1_5 key transport and 3DES (true unless set to false). */
    disallowDecryptionWithInsecureAlgorithm?: boolean;
    warnInsecureAlgorithm?: boolean;
  }
  export interface EncryptOptions {
    rsa_pub: string | Buffer;
    pem: string | Buffer;
    encryptionAlgorithm: string;
    keyEncryptionAlgorithm: string;
    keyEncryptionDigest?: string;
    disallowEncryptionWithInsecureAlgorithm?: boolean;
    warnInsecureAlgorithm?: boolean;
  }
  export function decrypt(xml: string, options: DecryptOptions, callback: (error: Error | null, result: string) => void): void;
  export function encrypt(
    content: string,
    options: EncryptOptions,
    callback: (error: Error | null, result: string) => void,
  ): void;
}
