"""Export TABLE to OUT.csv in primary-key pages and print a checksum."""
import csv
import hashlib
import sqlite3
import sys

PAGE = 1000


def main(db, table, out):
    conn = sqlite3.connect(db)
    digest = hashlib.sha256()
    rows = 0
    last = None
    with open(out, "w", newline="") as f:
        writer = csv.writer(f)
        cur = conn.execute(f"SELECT * FROM {table} LIMIT 0")
        writer.writerow([c[0] for c in cur.description])
        while True:
            if last is None:
                page = conn.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid LIMIT ?", (PAGE,)).fetchall()
            else:
                page = conn.execute(f"SELECT rowid, * FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?", (last, PAGE)).fetchall()
            if not page:
                break
            for row in page:
                writer.writerow(row[1:])
                digest.update(repr(row[1:]).encode())
            rows += len(page)
            last = page[-1][0]
    print(f"{rows} rows, sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
