/**
 * The store and terminal records the API returns, as plain types with no imports: the server's
 * serializers produce them and the dashboard (dashboard/src/types.ts) reads them, from this one
 * place.
 */
export interface StoreRecord {
  externalId: string;
  name: string;
  addressLine1: string | null;
  city: string | null;
  postalCode: string | null;
  country: string;
  timezone: string;
  defaultCurrency: string | null;
  mcc: string | null;
  metadata: Record<string, unknown>;
  status: string;
  /** Tips asked on the terminal (docs/tips.md). */
  tipping: TippingSettings;
  createdAt: string;
  updatedAt: string;
}

export interface TippingSettings {
  enabled: boolean;
  percentages: number[];
  allowCustom: boolean;
}

export interface TerminalRecord {
  externalId: string;
  storeExternalId: string;
  label: string;
  terminalType: string | null;
  vendor: string | null;
  model: string | null;
  serialNumber: string | null;
  metadata: Record<string, unknown>;
  status: string;
  ready: boolean;
  createdAt: string;
  updatedAt: string;
}
