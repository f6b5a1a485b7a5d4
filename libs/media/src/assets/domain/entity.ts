/** One image of a character: a committed file of the account, in the character's order. */
export interface EntityImage {
  readonly fileId: string;
  readonly objectKey: string;
  readonly contentType: string;
}

/**
 * A character (spec: "character entities"): a name and ordered images. Read only through the API; operators
 * make and remove them (admin API, CLI).
 */
export interface Entity {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly images: readonly EntityImage[];
  readonly createdAt: Date;
}
