import type { ColumnType } from 'kysely';

// Column kinds shared by the table types (Kysely's view: camelCase, mapped to snake_case by
// the CamelCasePlugin).
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp column with a database default (usually now()). */
export type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json<T = unknown> = ColumnType<T, string | T | undefined, string | T>;
