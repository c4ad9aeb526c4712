# plain_csv: a report CSV on stdin, out with every comma inside a quoted field made ';' (and so
# no quotes left), so that awk -F, sees the columns. Demangled C++ names (templates, and ASan's
# runtime functions in a sanitizer build) hold commas.
plain_csv() {
    python3 -c '
import csv, sys
out = csv.writer(sys.stdout, lineterminator="\n")
for row in csv.reader(sys.stdin):
    out.writerow([cell.replace(",", ";") for cell in row])'
}
