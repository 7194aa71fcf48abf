import { Alert, Button, Space, Spin } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { FINANCE_ROUTES, invoices } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { api } from '@mizan/sdk';
import { formatMoney, parseRecordId, type EntityRow } from '@mizan/ui';
import './print.css';

/**
 * Both languages' words for one label of the print view (`legal:invoices.printView.<key>`, or a
 * key of another namespace given whole): Arabic first, then English.
 */
function both(key: string, ns = 'legal'): [string, string] {
  const full = ns === 'legal' ? `invoices.printView.${key}` : key;
  return [i18n.getFixedT('ar', ns)(full), i18n.getFixedT('en', ns)(full)];
}

function Label({ k, ns }: { k: string; ns?: string }) {
  const [ar, en] = both(k, ns);
  return (
    <span className="invoice-print__label">
      <span lang="ar" dir="rtl">
        {ar}
      </span>
      <span lang="en" dir="ltr">
        {en}
      </span>
    </span>
  );
}

/**
 * An invoice or credit note printed in Arabic and English on one A4 page: the office's logo,
 * name, address, VAT number and colour; the client; an issued invoice's state (issued, partly
 * paid, paid); the lines with VAT; the totals with the total in
 * words in both languages; the Saudi QR code when the office is in Saudi Arabia. The browser's
 * print dialog makes the paper (or PDF) copy; `?lng=en` puts English first.
 */
export function InvoicePrintPage() {
  const { t } = useTranslation('legal');
  const params = useParams();
  const id = parseRecordId(params.id);
  const first = new URLSearchParams(window.location.search).get('lng') === 'en' ? 'en' : 'ar';
  const invoice = useQuery({
    queryKey: ['finance', 'invoice', id],
    queryFn: () => api.get<EntityRow>(`${invoices.path}/${id}`),
    enabled: id !== null,
  });
  const print = useQuery({
    queryKey: ['finance', 'invoicePrint', id],
    queryFn: () => api.call(FINANCE_ROUTES.invoicePrint, { params: { id: id! } }),
    enabled: id !== null,
  });
  if (invoice.isError || print.isError)
    return <Alert type="error" showIcon message={(invoice.error ?? print.error)?.message} />;
  if (!invoice.data || !print.data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const row = invoice.data;
  const data = print.data;
  const money = (n: unknown) => formatMoney(Number(n ?? 0), first);
  const title = row.kind === 'creditNote' ? 'creditNoteTitle' : data.qr ? 'taxInvoiceTitle' : 'invoiceTitle';
  return (
    <div className="invoice-print" dir={first === 'ar' ? 'rtl' : 'ltr'} lang={first}>
      <Space className="invoice-print__toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
          {t('invoices.print')}
        </Button>
      </Space>
      <article className="invoice-print__page" style={{ borderTopColor: data.office.primaryColor }}>
        <header className="invoice-print__header">
          {data.office.logoUrl && <img className="invoice-print__logo" src={data.office.logoUrl} alt="" />}
          <div>
            <h2 style={{ color: data.office.primaryColor }}>{data.office.name}</h2>
            {data.office.address && <div>{data.office.address}</div>}
            {[data.office.phone, data.office.email].filter(Boolean).join(' · ')}
            {data.office.vatNumber && (
              <div>
                <Label k="vatNumber" /> {data.office.vatNumber}
              </div>
            )}
          </div>
          {data.qr && <img className="invoice-print__qr" src={data.qr.png} alt="QR" />}
        </header>
        <h1 className="invoice-print__title">
          <Label k={title} />
        </h1>
        {row.state === 'draft' && <Alert type="warning" message={<Label k="draft" />} />}
        {row.state === 'void' && <Alert type="error" message={<Label k="void" />} />}
        <dl className="invoice-print__facts">
          <dt>
            <Label k="number" />
          </dt>
          <dd>{String(row.number ?? '—')}</dd>
          <dt>
            <Label k="issueDate" />
          </dt>
          <dd>{String(row.issueDate ?? '—')}</dd>
          <dt>
            <Label k="dueDate" />
          </dt>
          <dd>{String(row.dueDate ?? '—')}</dd>
          <dt>
            <Label k="client" />
          </dt>
          <dd>{data.customerName}</dd>
          {row.kind === 'invoice' && ['issued', 'partlyPaid', 'paid'].includes(String(row.state)) && (
            <>
              <dt>
                <Label k="state" />
              </dt>
              <dd data-testid="invoice-print-state">
                <Label k={`invoices.values.state.${String(row.state)}`} ns="entities" />
              </dd>
            </>
          )}
          {data.creditOfNumber && (
            <>
              <dt>
                <Label k="creditOf" />
              </dt>
              <dd>{data.creditOfNumber}</dd>
            </>
          )}
        </dl>
        <table className="invoice-print__lines">
          <thead>
            <tr>
              <th>#</th>
              <th>
                <Label k="description" />
              </th>
              <th>
                <Label k="quantity" />
              </th>
              <th>
                <Label k="unitPrice" />
              </th>
              <th>
                <Label k="discount" />
              </th>
              <th>
                <Label k="net" />
              </th>
              <th>
                <Label k="vat" />
              </th>
              <th>
                <Label k="lineTotal" />
              </th>
            </tr>
          </thead>
          <tbody>
            {data.lines.map((line, i) => (
              <tr key={i}>
                <td>{i + 1}</td>
                <td>{line.description}</td>
                <td>{line.quantity}</td>
                <td>{money(line.unitPrice)}</td>
                <td>{money(line.discount)}</td>
                <td>{money(line.net)}</td>
                <td>{line.vatExempt ? <Label k="exempt" /> : money(line.vat)}</td>
                <td>{money(line.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="invoice-print__totals">
          <tbody>
            <tr>
              <th>
                <Label k="subtotal" />
              </th>
              <td>
                {money(row.subtotal)} {data.office.currency}
              </td>
            </tr>
            <tr>
              <th>
                <Label k="vatTotal" />{' '}
                {row.vatRate !== null && row.vatRate !== undefined ? `(${Number(row.vatRate) / 100}%)` : ''}
              </th>
              <td>
                {money(row.vatTotal)} {data.office.currency}
              </td>
            </tr>
            <tr className="invoice-print__grand">
              <th>
                <Label k="total" />
              </th>
              <td>
                {money(row.total)} {data.office.currency}
              </td>
            </tr>
            {Number(row.paid ?? 0) > 0 && (
              <tr>
                <th>
                  <Label k="paid" />
                </th>
                <td>{money(row.paid)}</td>
              </tr>
            )}
            {row.kind === 'invoice' && row.state !== 'draft' && (
              <tr>
                <th>
                  <Label k="due" />
                </th>
                <td>{money(row.due)}</td>
              </tr>
            )}
          </tbody>
        </table>
        <p className="invoice-print__words" lang="ar" dir="rtl">
          {data.words.ar}
        </p>
        <p className="invoice-print__words" lang="en" dir="ltr">
          {data.words.en}
        </p>
        {row.notes ? <p className="invoice-print__notes">{String(row.notes)}</p> : null}
      </article>
    </div>
  );
}
