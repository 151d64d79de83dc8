-- The example vault's SQLite database: `node scripts/make-bookshop-db.mjs` (run by `npm start`
-- and by `runnable-blocks demo` when the file is missing) turns this into bookshop.sqlite.
-- Book ids match the bundled bookshop API's books (1 Dune, 2 The Left Hand of Darkness, 3 Neuromancer).
CREATE TABLE warehouses (
	id INTEGER PRIMARY KEY,
	city TEXT NOT NULL
);
CREATE TABLE stock (
	book_id INTEGER NOT NULL,
	warehouse_id INTEGER NOT NULL REFERENCES warehouses(id),
	quantity INTEGER NOT NULL,
	PRIMARY KEY (book_id, warehouse_id)
);
CREATE TABLE reviews (
	id INTEGER PRIMARY KEY,
	book_id INTEGER NOT NULL,
	stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
	reviewer TEXT NOT NULL,
	body TEXT,
	written_at TEXT NOT NULL
);
CREATE VIEW stock_by_book AS
	SELECT book_id, SUM(quantity) AS copies, COUNT(*) AS warehouses FROM stock GROUP BY book_id;

INSERT INTO warehouses (id, city) VALUES (1, 'Lisboa'), (2, 'Madrid'), (3, 'São Paulo');
INSERT INTO stock (book_id, warehouse_id, quantity) VALUES
	(1, 1, 12), (1, 2, 4), (1, 3, 0),
	(2, 1, 3), (2, 3, 9),
	(3, 2, 7);
INSERT INTO reviews (book_id, stars, reviewer, body, written_at) VALUES
	(1, 5, 'ana', 'Sand, spice and politics.', '2024-03-01'),
	(1, 4, 'bruno', NULL, '2024-05-17'),
	(2, 5, 'carla', 'Still ahead of its time.', '2023-11-02'),
	(3, 3, 'diego', 'Dense, but worth it.', '2024-01-20');
