declare module "*/wasm/dist/sql-wasm.cjs" {
	const initSqlJs: (options?: object) => Promise<unknown>;
	export default initSqlJs;
}
