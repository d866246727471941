import type { RouteModule } from '../app';
import { healthRoutes } from './health';

/** Every route module of the API, in mount order. */
export const routeModules: RouteModule[] = [healthRoutes];
