import { EnvironmentOutlined, SearchOutlined } from '@ant-design/icons';
import { PLANT_LIMITS } from '@sunward/contracts/plants';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Col, Form, type FormInstance, Input, InputNumber, Row, Select, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchDict, plantFormKeys } from './api';
import { matchTimeZone, type Place, placeLabel, searchPlaces } from './gazetteer';
import { LocationMap, type MapFocus } from './LocationMap';
import { addressRule, latitudeRule, longitudeRule, plainTextRules, requiredRule } from './rules';

/** The browser's own zone, as the server's list spells it (the same name when listed): the default for a new plant. */
export function useBrowserTimeZone(): string | undefined {
  const zones = useTimeZones();
  return useMemo(() => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zones.data
      ? matchTimeZone(
          own,
          zones.data.map((z) => String(z.value)),
        )
      : undefined;
  }, [zones.data]);
}

export function useTimeZones() {
  return useQuery({ queryKey: plantFormKeys.dict('timezones'), queryFn: () => fetchDict('timezones'), staleTime: Infinity });
}

/**
 * Where the plant is: an address search over the built-in gazetteer (no network needed), the map,
 * the coordinates, the country or region and the time zone.
 */
export function LocationFields({ form, disabled }: { form: FormInstance; disabled?: boolean }) {
  const { t } = useTranslation();
  const zones = useTimeZones();
  const [matches, setMatches] = useState<Place[]>([]);
  const [suggestedFrom, setSuggestedFrom] = useState<string | null>(null);
  const [focus, setFocus] = useState<MapFocus | null>(null);
  const latitude = Form.useWatch<number | null | undefined>('latitude', form);
  const longitude = Form.useWatch<number | null | undefined>('longitude', form);
  const address = Form.useWatch<string | undefined>('address', form);

  // A saved plant opens with the map on it.
  useEffect(() => {
    const saved = { latitude: form.getFieldValue('latitude') as unknown, longitude: form.getFieldValue('longitude') as unknown };
    if (typeof saved.latitude === 'number' && typeof saved.longitude === 'number')
      setFocus({ latitude: saved.latitude, longitude: saved.longitude });
  }, [form]);

  // A saved zone stays as its user spelled it: the server lists every IANA name (Asia/Kolkata and the
  // older Asia/Calcutta alike), so it is never rewritten to another spelling.

  const choose = (place: Place) => {
    const zone = zones.data
      ? matchTimeZone(
          place.timezone,
          zones.data.map((z) => String(z.value)),
        )
      : undefined;
    form.setFieldsValue({
      address: placeLabel(place),
      latitude: place.lat,
      longitude: place.lng,
      region: place.country,
      ...(zone ? { timezone: zone } : {}),
    });
    setSuggestedFrom(zone ? place.name : null);
    setFocus({ latitude: place.lat, longitude: place.lng });
    void form.validateFields(['latitude', 'longitude', 'region', 'timezone']).catch(() => undefined);
  };

  const pick = (lat: number, lng: number) => {
    form.setFieldsValue({ latitude: lat, longitude: lng });
    void form.validateFields(['latitude', 'longitude']).catch(() => undefined);
  };

  return (
    <div className="sw-pf-location">
      <Form.Item name="address" label={t('plantform.address')} rules={[addressRule]}>
        <AutoComplete
          options={matches.map((place) => ({
            value: placeLabel(place),
            label: (
              <div className="sw-pf-place" data-testid="place-option">
                <EnvironmentOutlined />
                <span className="sw-pf-place-name">{place.name}</span>
                <Typography.Text type="secondary">{place.country}</Typography.Text>
              </div>
            ),
          }))}
          onSearch={(text) => setMatches(searchPlaces(text))}
          onSelect={(value: string) => {
            const place = matches.find((p) => placeLabel(p) === value);
            if (place) choose(place);
          }}
          disabled={disabled}
          notFoundContent={
            address && address.length >= 2 ? <Typography.Text type="secondary">{t('plantform.addressNoMatch')}</Typography.Text> : null
          }
        >
          <Input
            prefix={<SearchOutlined className="sw-muted" />}
            placeholder={t('plantform.addressPlaceholder')}
            maxLength={PLANT_LIMITS.addressMax}
            allowClear
            data-testid="address-search"
          />
        </AutoComplete>
      </Form.Item>
      <LocationMap latitude={latitude} longitude={longitude} onPick={pick} focus={focus} disabled={disabled} />
      <Row gutter={16} className="sw-gap-top-sm">
        <Col xs={12}>
          <Form.Item name="latitude" label={t('plantform.latitude')} rules={[requiredRule(t), latitudeRule]}>
            <InputNumber className="sw-pf-num" placeholder="52.52" disabled={disabled} data-testid="latitude" />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item name="longitude" label={t('plantform.longitude')} rules={[requiredRule(t), longitudeRule]}>
            <InputNumber className="sw-pf-num" placeholder="13.405" disabled={disabled} data-testid="longitude" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="region" label={t('plantform.region')} rules={plainTextRules()}>
            <Input placeholder={t('plantform.regionPlaceholder')} disabled={disabled} data-testid="region" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="timezone"
            label={t('plantform.timezone')}
            rules={[requiredRule(t)]}
            extra={suggestedFrom ? t('plantform.timezoneSuggested', { city: suggestedFrom }) : undefined}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={zones.isPending}
              options={zones.data?.map((z) => ({ value: String(z.value), label: z.label }))}
              onChange={() => setSuggestedFrom(null)}
              disabled={disabled}
              popupMatchSelectWidth={false}
              data-testid="timezone"
            />
          </Form.Item>
        </Col>
      </Row>
    </div>
  );
}
