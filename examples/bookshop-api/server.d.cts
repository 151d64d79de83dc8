/** The bundled demo API (see server.cjs). */
export interface BookshopApi {
	url: string;
	port: number;
	close(): Promise<void>;
}
export function startBookshopApi(options?: { port?: number }): Promise<BookshopApi>;
