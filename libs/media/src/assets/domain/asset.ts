/** A file of the account saved in its library (spec: Asset library). The library is the account's. */
export interface Asset {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly favorite: boolean;
  readonly collectionId: string | null;
  /** The committed file it names; its facts below are copied when it is saved (committed files are immutable). */
  readonly fileId: string;
  readonly objectKey: string;
  readonly contentType: string;
  readonly bytes: number;
  /** The API key that saved it (record keeping: every key of the account sees and changes the library). */
  readonly createdByKeyId: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What PATCH may change; a field left out keeps its value. */
export interface AssetChanges {
  readonly name?: string;
  readonly favorite?: boolean;
}

/** The library's size: what its quotas count. */
export interface AssetUsage {
  readonly usedBytes: number;
  readonly assetCount: number;
}
