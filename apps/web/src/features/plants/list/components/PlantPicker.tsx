import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchPlantOptions, plantKeys } from '../api';

interface Props {
  value?: number;
  onChange?: (value: number) => void;
  id?: string;
}

/** A searchable choice among the plants the caller can pick. */
export function PlantPicker({ value, onChange, id }: Props) {
  const { t } = useTranslation();
  const options = useQuery({ queryKey: plantKeys.options, queryFn: fetchPlantOptions, staleTime: 60_000 });
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={onChange}
      showSearch={{ optionFilterProp: 'label' }}
      loading={options.isPending}
      placeholder={t('plants.choosePlant')}
      options={(options.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
      data-testid="plant-picker"
    />
  );
}
