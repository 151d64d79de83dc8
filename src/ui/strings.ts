/**
 * UI strings in English, Spanish and Portuguese (DESIGN.md §11), chosen from Obsidian's
 * language setting. Sentence case, as the Obsidian guidelines ask.
 */
const en = {
	run: "Run",
	stop: "Stop",
	forceRun: "Force re-run",
	clearCache: "Clear cache",
	history: "History",
	settingsMenu: "More actions",
	raw: "Raw",
	form: "Form",
	method: "Method",
	tabBody: "Body",
	tabHeaders: "Headers",
	tabCookies: "Cookies",
	tabTiming: "Timing",
	tabRaw: "Raw",
	searchHeaders: "Filter headers",
	noCookies: "No cookies were set.",
	emptyBody: "(empty body)",
	binaryBody: "Binary body, {size}. Base64 of the first {shown}:",
	cached: "(cached)",
	receiving: "Receiving… {size}",
	waiting: "Waiting for the response…",
	notRunYet: "Not run yet. Press run or {key}.",
	saveBody: "Save body to file",
	savedBody: "Saved the body to {path}",
	copyAs: "Copy as {format}",
	sendAsCurl: "Send as cURL (save to file)",
	exportNote: "Export note as .http",
	noHistory: "No runs recorded yet.",
	historyTitle: "Last runs",
	transport: "Transport: {name}",
	connectionReused: "connection reused",
	line: "Line {n}",
	runDependency: "Run {alias} first",
	queryParams: "Query parameters",
	headers: "Headers",
	body: "Body",
	addRow: "Add",
	removeRow: "Remove",
	name: "Name",
	value: "Value",
	loadingMore: "Formatting… {done} of {total}",
	showingLines: "{lines} lines",
} as const;

export type StringKey = keyof typeof en;
type Table = Record<StringKey, string>;

const es: Table = {
	run: "Ejecutar",
	stop: "Detener",
	forceRun: "Forzar nueva ejecución",
	clearCache: "Vaciar caché",
	history: "Historial",
	settingsMenu: "Más acciones",
	raw: "Texto",
	form: "Formulario",
	method: "Método",
	tabBody: "Cuerpo",
	tabHeaders: "Cabeceras",
	tabCookies: "Cookies",
	tabTiming: "Tiempos",
	tabRaw: "Crudo",
	searchHeaders: "Filtrar cabeceras",
	noCookies: "No se recibieron cookies.",
	emptyBody: "(cuerpo vacío)",
	binaryBody: "Cuerpo binario, {size}. Base64 de los primeros {shown}:",
	cached: "(en caché)",
	receiving: "Recibiendo… {size}",
	waiting: "Esperando la respuesta…",
	notRunYet: "Aún no se ha ejecutado. Pulsa ejecutar o {key}.",
	saveBody: "Guardar el cuerpo en un archivo",
	savedBody: "Cuerpo guardado en {path}",
	copyAs: "Copiar como {format}",
	sendAsCurl: "Enviar como cURL (guardar en archivo)",
	exportNote: "Exportar la nota como .http",
	noHistory: "Todavía no hay ejecuciones.",
	historyTitle: "Últimas ejecuciones",
	transport: "Transporte: {name}",
	connectionReused: "conexión reutilizada",
	line: "Línea {n}",
	runDependency: "Ejecutar {alias} primero",
	queryParams: "Parámetros de consulta",
	headers: "Cabeceras",
	body: "Cuerpo",
	addRow: "Añadir",
	removeRow: "Quitar",
	name: "Nombre",
	value: "Valor",
	loadingMore: "Formateando… {done} de {total}",
	showingLines: "{lines} líneas",
};

const pt: Table = {
	run: "Executar",
	stop: "Parar",
	forceRun: "Forçar nova execução",
	clearCache: "Limpar cache",
	history: "Histórico",
	settingsMenu: "Mais ações",
	raw: "Texto",
	form: "Formulário",
	method: "Método",
	tabBody: "Corpo",
	tabHeaders: "Cabeçalhos",
	tabCookies: "Cookies",
	tabTiming: "Tempos",
	tabRaw: "Bruto",
	searchHeaders: "Filtrar cabeçalhos",
	noCookies: "Nenhum cookie foi definido.",
	emptyBody: "(corpo vazio)",
	binaryBody: "Corpo binário, {size}. Base64 dos primeiros {shown}:",
	cached: "(em cache)",
	receiving: "Recebendo… {size}",
	waiting: "Aguardando a resposta…",
	notRunYet: "Ainda não executado. Clique em executar ou {key}.",
	saveBody: "Salvar o corpo em arquivo",
	savedBody: "Corpo salvo em {path}",
	copyAs: "Copiar como {format}",
	sendAsCurl: "Enviar como cURL (salvar em arquivo)",
	exportNote: "Exportar a nota como .http",
	noHistory: "Nenhuma execução registrada ainda.",
	historyTitle: "Últimas execuções",
	transport: "Transporte: {name}",
	connectionReused: "conexão reutilizada",
	line: "Linha {n}",
	runDependency: "Executar {alias} primeiro",
	queryParams: "Parâmetros de consulta",
	headers: "Cabeçalhos",
	body: "Corpo",
	addRow: "Adicionar",
	removeRow: "Remover",
	name: "Nome",
	value: "Valor",
	loadingMore: "Formatando… {done} de {total}",
	showingLines: "{lines} linhas",
};

const TABLES: Record<string, Table> = { en, es, pt };
let current: Table = en;

/** Picks the table for an Obsidian language code ("es", "pt-BR"…); English otherwise. */
export function setLanguage(code: string | null | undefined): void {
	const base = (code ?? "en").toLowerCase().split(/[-_]/)[0];
	current = TABLES[base] ?? en;
}

export function t(key: StringKey, vars: Record<string, string | number> = {}): string {
	return current[key].replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

export const LANGUAGES = Object.keys(TABLES);
export function tableFor(code: string): Table {
	return TABLES[code] ?? en;
}
