declare module "fts5-sql-bundle/dist/sql-wasm.js" {
	const initSqlJs: (options?: object) => Promise<unknown>;
	export default initSqlJs;
}
