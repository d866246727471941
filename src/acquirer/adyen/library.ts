/**
 * The parts of Adyen's library the adapter uses, each from its own module. The package's root
 * loads every API and model Adyen has (about 0.7 s in every process that starts the service, and
 * again in every stack test file); these load in about 0.1 s. Checkout's modifications, whose
 * models alone take 0.14 s, load on first use (`loadModificationsApi`).
 */
export { default as Client } from '@adyen/api-library/lib/src/client';
export { default as Config, EnvironmentEnum } from '@adyen/api-library/lib/src/config';
export { default as HttpClientException } from '@adyen/api-library/lib/src/httpClient/httpClientException';
export { default as HttpURLConnectionClient } from '@adyen/api-library/lib/src/httpClient/httpURLConnectionClient';
export { default as hmacValidator } from '@adyen/api-library/lib/src/utils/hmacValidator';
export * as SaleToAcquirerDataParser from '@adyen/api-library/lib/src/utils/tapi/saleToAcquirerDataParser';
export { CloudDeviceApi } from '@adyen/api-library/lib/src/services/clouddevice/cloudDeviceApi';
export { DisputesApi } from '@adyen/api-library/lib/src/services/disputes/disputesApi';
export type { ModificationsApi } from '@adyen/api-library/lib/src/services/checkout/modificationsApi';

export async function loadModificationsApi(): Promise<typeof import('@adyen/api-library/lib/src/services/checkout/modificationsApi').ModificationsApi> {
  return (await import('@adyen/api-library/lib/src/services/checkout/modificationsApi')).ModificationsApi;
}
