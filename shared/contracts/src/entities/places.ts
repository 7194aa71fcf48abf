import { defineEntity } from '../entity';

export const continents = defineEntity({
  name: 'continents',
  path: '/admin/settings/places/continents',
  remote: 'settings',
  menu: { group: 'places', order: 1 },
  fields: {
    name: { type: 'string', required: true, unique: true, max: 100, search: true, sort: true },
    code: { type: 'string', max: 10, search: true, sort: true, code: true },
  },
});

export const countries = defineEntity({
  name: 'countries',
  path: '/admin/settings/places/countries',
  remote: 'settings',
  menu: { group: 'places', order: 2 },
  fields: {
    name: { type: 'string', required: true, unique: true, max: 100, search: true, sort: true },
    code: { type: 'string', max: 3, search: true, sort: true, code: true },
    nationality: { type: 'string', max: 100, list: false },
    continentId: { type: 'ref', entity: 'continents', required: true },
  },
});

export const governorates = defineEntity({
  name: 'governorates',
  path: '/admin/settings/places/governorates',
  remote: 'settings',
  menu: { group: 'places', order: 3 },
  uniqueTogether: [['name', 'countryId']],
  fields: {
    name: { type: 'string', required: true, max: 100, search: true, sort: true },
    countryId: { type: 'ref', entity: 'countries', required: true },
  },
});

export const policeStations = defineEntity({
  name: 'policeStations',
  path: '/admin/settings/places/policeStations',
  remote: 'settings',
  menu: { group: 'places', order: 4 },
  importable: true,
  uniqueTogether: [['name', 'governorateId']],
  fields: {
    name: { type: 'string', required: true, max: 150, search: true, sort: true },
    governorateId: { type: 'ref', entity: 'governorates', required: true },
    address: { type: 'string', max: 255, search: true },
    phone: { type: 'phone', max: 20 },
  },
});
